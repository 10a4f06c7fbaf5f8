// Independent WARC 1.1 verifier for mneme's tests (Node, warcio.js 2.4.11).
//
// internetarchive/gowarc's `warc verify` is not served by the Go module proxy
// here and Debian carries no WARC validator, so this script stands in for it:
// it shares no code with the Go writer. warcio.js finds the records and their
// gzip members; Node's zlib inflates each member on its own and Node's crypto
// recomputes the digests. It checks what `warc verify` checks (WARC version,
// block digest on every record, payload digest of responses with chunked
// transfer coding removed) and more: one record per gzip member, members
// contiguous to the end of the file, mandatory and per-type fields, record-id
// references, revisit profiles.
//
// Usage: node verify-warc.mjs FILE...   (warcio.js is looked up in
// $MNEME_TOOLS/warcio, default ~/.cache/mneme-tools/warcio).
// Prints one JSON line per file {"file","valid","count","errors"}; exits 1 if
// any file is invalid.
import { createRequire } from "node:module";
import { createReadStream, readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { gunzipSync } from "node:zlib";
import { basename, join } from "node:path";
import { homedir } from "node:os";

const tools = process.env.MNEME_TOOLS || join(homedir(), ".cache", "mneme-tools");
const require = createRequire(join(tools, "warcio", "package.json"));
const { WARCParser } = require("warcio");

const TYPES = new Set(["warcinfo", "response", "resource", "request", "metadata", "revisit", "conversion", "continuation"]);
const PROFILES = new Map([
  ["http://netpreserve.org/warc/1.1/revisit/identical-payload-digest", "digest"],
  ["http://netpreserve.org/warc/1.1/revisit/server-not-modified", "notmodified"],
]);
const CRLF2 = Buffer.from("\r\n\r\n");

// base32 (RFC 4648) of a buffer, as used in "sha1:" digests.
function base32(buf) {
  const alpha = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = 0, value = 0, out = "";
  for (const byte of buf) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alpha[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alpha[(value << (5 - bits)) & 31];
  while (out.length % 8) out += "=";
  return out;
}

const sha1 = (buf) => "sha1:" + base32(createHash("sha1").update(buf).digest());

// Parses "Name: value" CRLF lines; returns [fields, error].
function parseFields(text) {
  const fields = [];
  const lines = text.split("\r\n");
  for (const line of lines) {
    if (line === "") continue;
    const i = line.indexOf(":");
    if (i <= 0) return [fields, `malformed field line ${JSON.stringify(line)}`];
    fields.push([line.slice(0, i).trim().toLowerCase(), line.slice(i + 1).trim()]);
  }
  return [fields, null];
}
const get = (fields, name) => (fields.find(([n]) => n === name.toLowerCase()) || [])[1];

// The entity body of a raw HTTP response, as Go's net/http reads it (RFC 7230
// message body length rules); throws when it cannot be read whole.
function entityBody(block) {
  const end = block.indexOf(CRLF2);
  if (end < 0) throw new Error("HTTP header has no blank line");
  const head = block.subarray(0, end).toString("latin1").split("\r\n");
  const status = parseInt((head[0].split(" ")[1] || ""), 10);
  const [fields] = parseFields(head.slice(1).join("\r\n"));
  let body = block.subarray(end + 4);
  if ((status >= 100 && status < 200) || status === 204 || status === 304) return Buffer.alloc(0);
  const te = (get(fields, "transfer-encoding") || "").toLowerCase();
  if (te.split(",").map((s) => s.trim()).includes("chunked")) {
    const parts = [];
    let pos = 0;
    for (;;) {
      const eol = body.indexOf("\r\n", pos);
      if (eol < 0) throw new Error("chunk size line cut short");
      const size = parseInt(body.subarray(pos, eol).toString("latin1").split(";")[0].trim(), 16);
      if (Number.isNaN(size)) throw new Error("bad chunk size");
      pos = eol + 2;
      if (size === 0) return Buffer.concat(parts);
      if (pos + size + 2 > body.length) throw new Error("chunk cut short");
      parts.push(body.subarray(pos, pos + size));
      pos += size + 2;
    }
  }
  const cl = get(fields, "content-length");
  if (cl !== undefined) {
    const n = Number(cl);
    if (body.length < n) throw new Error(`body has ${body.length} bytes, Content-Length ${n}`);
    body = body.subarray(0, n);
  }
  return body;
}

async function verify(path) {
  const errors = [];
  const file = readFileSync(path);
  const records = [];
  const origWarn = console.warn;
  console.warn = (...a) => errors.push("warcio: " + a.join(" "));
  try {
    const parser = new WARCParser(createReadStream(path), { parseHttp: false });
    for await (const record of parser) {
      await record.skipFully();
      records.push({ offset: parser.offset, length: parser.recordLength });
    }
  } catch (e) {
    errors.push("warcio could not parse the file: " + e.message);
  } finally {
    console.warn = origWarn;
  }
  if (records.length === 0) errors.push("no record in file");

  const ids = new Map();
  const parsed = [];
  let expect = 0;
  for (const { offset, length } of records) {
    const at = `record at offset ${offset}`;
    if (offset !== expect) errors.push(`${at}: expected a member at ${expect}`);
    expect = offset + length;
    let raw;
    try {
      raw = gunzipSync(file.subarray(offset, offset + length));
    } catch (e) {
      errors.push(`${at}: gzip member does not inflate: ${e.message}`);
      continue;
    }
    const hEnd = raw.indexOf(CRLF2);
    if (hEnd < 0) { errors.push(`${at}: header has no end`); continue; }
    const headText = raw.subarray(0, hEnd).toString("utf8");
    const nl = headText.indexOf("\r\n");
    const version = nl < 0 ? headText : headText.slice(0, nl);
    if (version !== "WARC/1.1") errors.push(`${at}: version ${JSON.stringify(version)}, want WARC/1.1`);
    const [fields, ferr] = parseFields(nl < 0 ? "" : headText.slice(nl + 2));
    if (ferr) errors.push(`${at}: ${ferr}`);
    const id = get(fields, "WARC-Record-ID");
    const type = get(fields, "WARC-Type");
    const date = get(fields, "WARC-Date");
    const clen = get(fields, "Content-Length");
    if (!id || !/^<urn:uuid:[0-9a-f-]{36}>$/.test(id)) errors.push(`${at}: bad WARC-Record-ID ${id}`);
    else if (ids.has(id)) errors.push(`${at}: duplicate WARC-Record-ID ${id}`);
    if (!TYPES.has(type)) errors.push(`${at}: bad WARC-Type ${type}`);
    if (!date || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(date)) errors.push(`${at}: bad WARC-Date ${date}`);
    if (!/^\d+$/.test(clen || "")) { errors.push(`${at}: bad Content-Length ${clen}`); continue; }
    const n = Number(clen);
    const block = raw.subarray(hEnd + 4, hEnd + 4 + n);
    const tail = raw.subarray(hEnd + 4 + n);
    if (block.length !== n || !tail.equals(CRLF2)) {
      errors.push(`${at}: block is not Content-Length ${n} bytes followed by CRLFCRLF and the end of the member`);
      continue;
    }
    ids.set(id, type);
    parsed.push({ at, fields, type, block, id });
  }
  if (records.length && expect !== file.length) errors.push(`${file.length - expect} bytes after the last record`);

  const info = parsed[0];
  if (info && info.type !== "warcinfo") errors.push("first record is not warcinfo");
  if (info && info.type === "warcinfo") {
    if (get(info.fields, "WARC-Filename") !== basename(path).replace(/\.open$/, "")) errors.push("warcinfo WARC-Filename is not the file's name");
  }
  for (const { at, fields, type, block } of parsed) {
    const bd = get(fields, "WARC-Block-Digest");
    if (!bd) errors.push(`${at}: WARC-Block-Digest is missing`);
    else if (bd !== sha1(block)) errors.push(`${at}: WARC-Block-Digest ${bd}, computed ${sha1(block)}`);
    const ct = get(fields, "Content-Type") || "";
    if (ct === "application/warc-fields") {
      const [, e] = parseFields(block.toString("utf8"));
      if (e || (block.length && !block.toString("latin1").endsWith("\r\n"))) errors.push(`${at}: warc-fields block: ${e || "no final CRLF"}`);
    }
    if (type !== "warcinfo") {
      if (!get(fields, "WARC-Target-URI")) errors.push(`${at}: ${type} without WARC-Target-URI`);
      if (info && get(fields, "WARC-Warcinfo-ID") !== info.id) errors.push(`${at}: WARC-Warcinfo-ID does not name the file's warcinfo`);
    }
    for (const [n, v] of fields) {
      if ((n === "warc-concurrent-to" || n === "warc-refers-to-in-file") && !ids.has(v)) errors.push(`${at}: ${n} ${v} names no record in the file`);
    }
    if (type === "response" || type === "request") {
      if (!ct.startsWith(`application/http; msgtype=${type}`)) errors.push(`${at}: Content-Type ${ct}`);
    }
    const pd = get(fields, "WARC-Payload-Digest");
    if (type === "response" && pd) {
      try {
        const got = sha1(entityBody(block));
        if (got !== pd) errors.push(`${at}: WARC-Payload-Digest ${pd}, computed ${got}`);
      } catch (e) {
        errors.push(`${at}: payload digest given but payload unreadable: ${e.message}`);
      }
    }
    if (type === "revisit") {
      const profile = PROFILES.get(get(fields, "WARC-Profile"));
      if (!profile) errors.push(`${at}: unknown WARC-Profile ${get(fields, "WARC-Profile")}`);
      if (!get(fields, "WARC-Refers-To-Target-URI")) errors.push(`${at}: revisit without WARC-Refers-To-Target-URI`);
      if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(get(fields, "WARC-Refers-To-Date") || "")) errors.push(`${at}: revisit without a valid WARC-Refers-To-Date`);
      if (profile === "digest" && !pd) errors.push(`${at}: identical-payload-digest revisit without WARC-Payload-Digest`);
      if (block.length && !/^HTTP\/\d\.\d \d{3}/.test(block.toString("latin1"))) errors.push(`${at}: revisit block is not an HTTP response header`);
      if (profile === "digest" && block.length && block.indexOf(CRLF2) !== block.length - 4) errors.push(`${at}: identical-payload-digest revisit keeps more than the HTTP header`);
    }
  }
  return { file: path, valid: errors.length === 0, count: records.length, errors };
}

let bad = false;
for (const path of process.argv.slice(2)) {
  const res = await verify(path);
  bad ||= !res.valid;
  process.stdout.write(JSON.stringify(res) + "\n");
}
process.exit(bad ? 1 : 0);
