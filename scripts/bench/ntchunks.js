// chunks(path) yields a file's bytes in 16 MiB pieces, for Oxigraph's
// streaming Store.load; each piece is a copy, since the loader may keep it
// while the buffer is refilled.
const fs = require("fs");

function* chunks(path) {
  const fd = fs.openSync(path, "r");
  const buf = Buffer.alloc(16 << 20);
  try {
    for (;;) {
      const n = fs.readSync(fd, buf, 0, buf.length, null);
      if (n === 0) return;
      yield Uint8Array.prototype.slice.call(buf, 0, n);
    }
  } finally {
    fs.closeSync(fd);
  }
}

module.exports = { chunks };
