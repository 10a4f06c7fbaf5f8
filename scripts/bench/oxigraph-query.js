// Loads one N-Triples file into an in-memory Oxigraph store (JS/WASM
// build), then times each query file: one warm-up run, then RUNS timed
// runs, each materializing the whole answer. Prints one tab-separated
// line per query, as querybench does: name, rows (solutions, triples, or
// 1/0 for ASK), median and fastest warm time in milliseconds. With
// ANSWERS set to a directory, each SELECT or ASK answer is saved there as
// NAME.json in the SPARQL JSON results format, for answercheck.
// Usage: node oxigraph-query.js FILE RUNS QUERY.rq...  (NODE_PATH must reach oxigraph)
const fs = require("fs");
const path = require("path");
const oxigraph = require("oxigraph");
const { chunks } = require("./ntchunks");

const [file, runsArg, ...queries] = process.argv.slice(2);
const runs = Number(runsArg);
const store = new oxigraph.Store();
store.load(chunks(file), { format: "application/n-triples", no_transaction: true });

function run(q) {
  const t0 = process.hrtime.bigint();
  const r = store.query(q, { use_default_graph_as_union: true });
  const rows = typeof r === "boolean" ? (r ? 1 : 0) : r.length;
  return { rows, ms: Number(process.hrtime.bigint() - t0) / 1e6, r };
}

// jsonTerm writes an Oxigraph term as a SPARQL JSON results term.
function jsonTerm(t) {
  switch (t.termType) {
    case "NamedNode":
      return { type: "uri", value: t.value };
    case "BlankNode":
      return { type: "bnode", value: t.value };
    case "Literal":
      if (t.language) return { type: "literal", value: t.value, "xml:lang": t.language };
      return { type: "literal", value: t.value, datatype: t.datatype.value };
  }
  return null;
}

// saveAnswer writes a SELECT (an array of Maps) or ASK answer; graphs
// (arrays of quads) are not compared, so not saved.
function saveAnswer(name, r) {
  let doc;
  if (typeof r === "boolean") {
    doc = { head: {}, boolean: r };
  } else {
    if (r.length > 0 && !(r[0] instanceof Map)) return;
    const vars = new Set();
    const bindings = r.map((m) => {
      const b = {};
      for (const [k, t] of m) {
        vars.add(k);
        const j = jsonTerm(t);
        if (j) b[k] = j;
      }
      return b;
    });
    doc = { head: { vars: [...vars] }, results: { bindings } };
  }
  fs.writeFileSync(path.join(process.env.ANSWERS, name + ".json"), JSON.stringify(doc));
}

for (const qf of queries) {
  const name = path.basename(qf).replace(/\.[^.]*$/, "");
  try {
    const q = fs.readFileSync(qf, "utf8");
    const first = run(q);
    if (process.env.ANSWERS) saveAnswer(name, first.r);
    const n = first.ms > 10000 ? 2 : runs;
    const times = [];
    for (let i = 0; i < n; i++) times.push(run(q).ms);
    times.sort((a, b) => a - b);
    console.log([name, first.rows, times[Math.floor(n / 2)].toFixed(2), times[0].toFixed(2)].join("\t"));
  } catch (e) {
    console.error(`oxigraph-query: ${qf}: ${e}`);
    console.log([name, "-", "-", "-"].join("\t"));
  }
}
