// Loads one N-Triples file into an in-memory Oxigraph store (JS/WASM
// build), streaming it in chunks, and prints one JSON line:
// {"seconds": load time, "triples": store size}.
// Usage: node oxigraph-load.js FILE  (NODE_PATH must reach oxigraph)
const fs = require("fs");
const oxigraph = require("oxigraph");

function* chunks(path) {
  const fd = fs.openSync(path, "r");
  const buf = Buffer.alloc(16 << 20);
  try {
    for (;;) {
      const n = fs.readSync(fd, buf, 0, buf.length, null);
      if (n === 0) return;
      // A copy: the loader may keep the chunk while we refill the buffer.
      yield Uint8Array.prototype.slice.call(buf, 0, n);
    }
  } finally {
    fs.closeSync(fd);
  }
}

const store = new oxigraph.Store();
const t0 = process.hrtime.bigint();
store.load(chunks(process.argv[2]), { format: "application/n-triples", no_transaction: true });
const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
console.log(JSON.stringify({ seconds, triples: store.size }));
