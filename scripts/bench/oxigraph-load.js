// Loads one N-Triples file into an in-memory Oxigraph store (JS/WASM
// build), streaming it in chunks, and prints one JSON line:
// {"seconds": load time, "triples": store size}.
// Usage: node oxigraph-load.js FILE  (NODE_PATH must reach oxigraph)
const oxigraph = require("oxigraph");
const { chunks } = require("./ntchunks");

const store = new oxigraph.Store();
const t0 = process.hrtime.bigint();
store.load(chunks(process.argv[2]), { format: "application/n-triples", no_transaction: true });
const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
console.log(JSON.stringify({ seconds, triples: store.size }));
