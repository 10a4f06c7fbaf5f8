// Writes kb/cldr_dates_gen.go: from ICU's CLDR data (Node's Intl), per
// language, the month and weekday names (wide and abbreviated, format
// and stand-alone forms), the past relative-time patterns of every unit,
// style and plural form ("vor {0} Stunden", "{0} ч. назад", "{0}天前"),
// the relative day words ("yesterday", "anteayer", "今天"), and the order
// of a short numeric date. The languages are those of the C library's
// locales the reader already knows (kb/locales_gen.go) and every
// two-letter language code that ICU describes, and a few script variants. Run: node scripts/gen/cldr-dates.mjs
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";

const gen = readFileSync(new URL("../../kb/locales_gen.go", import.meta.url), "utf8");
const glibc = [...new Set([...gen.matchAll(/^\t+"([a-z]+)":/gm)].map((m) => m[1]))];
// Every two-letter language code too: ICU describes languages the C
// library does not (Esperanto, Western Frisian, Yoruba…).
const letters = "abcdefghijklmnopqrstuvwxyz";
const iso639 = [...letters].flatMap((a) => [...letters].map((b) => a + b));
const langs = Intl.DateTimeFormat.supportedLocalesOf([...new Set([...glibc, ...iso639]), "zh-Hant", "sr-Latn", "bs-Cyrl", "uz-Cyrl"])
  .filter((l) => Intl.RelativeTimeFormat.supportedLocalesOf([l]).length > 0)
  .filter((l) => new Intl.DateTimeFormat(l).resolvedOptions().locale.split("-")[0] === l.split("-")[0]);
// Lower case, spaces of any kind as one space, direction marks dropped.
const fold = (s, l) => s.normalize("NFC").toLocaleLowerCase(l).replace(/[\u200f\u200e\u061c]/g, "")
  .replace(/\s+/g, " ");
const lower = (s, l) => fold(s, l).trim();
const units = ["second", "minute", "hour", "day", "week", "month", "year"];

const out = [];
for (const l of langs.sort()) {
  const g = l + "-u-ca-gregory-nu-latn";
  const months = [], weekdays = [];
  for (let m = 0; m < 12; m++) {
    const d = new Date(Date.UTC(2021, m, 15));
    const set = new Set();
    for (const month of ["long", "short"]) {
      set.add(lower(new Intl.DateTimeFormat(g, { month, timeZone: "UTC" }).format(d), l).replace(/\.$/, ""));
      const p = new Intl.DateTimeFormat(g, { month, day: "numeric", timeZone: "UTC" }).formatToParts(d);
      set.add(lower(p.find((x) => x.type === "month").value, l).replace(/\.$/, ""));
      // The month as a whole date writes it, with the letters glued to
      // it ("15 באוקטובר 2018", "تشرینی یەکەمی").
      const q = new Intl.DateTimeFormat(g, { month, day: "numeric", year: "numeric", timeZone: "UTC" }).formatToParts(d);
      const i = q.findIndex((x) => x.type === "month");
      const before = i > 0 && q[i - 1].type === "literal" ? q[i - 1].value.match(/\p{L}+$/u)?.[0] ?? "" : "";
      const after = i + 1 < q.length && q[i + 1].type === "literal" ? q[i + 1].value.match(/^\p{L}+/u)?.[0] ?? "" : "";
      if (before || after) set.add(lower(before + q[i].value + after, l).replace(/\.$/, ""));
    }
    months.push([...set].filter((w) => w && !/\d/.test(w)));
  }
  for (let i = 0; i < 7; i++) {
    const d = new Date(Date.UTC(2021, 0, 3 + i)); // 3 January 2021 is a Sunday
    const set = new Set();
    for (const weekday of ["long", "short"]) {
      set.add(lower(new Intl.DateTimeFormat(g, { weekday, timeZone: "UTC" }).format(d), l).replace(/\.$/, ""));
    }
    weekdays.push([...set]);
  }
  // Past patterns: every plural form, found by formatting numbers that
  // fall in each of the language's plural categories.
  const plural = new Intl.PluralRules(l);
  const samples = new Map();
  for (let n = 1; n <= 120; n++) {
    const c = plural.select(n);
    if (!samples.has(c)) samples.set(c, n);
  }
  const past = [];
  for (const unit of units) {
    const set = new Set();
    for (const style of ["long", "short", "narrow"]) {
      const rtf = new Intl.RelativeTimeFormat(g, { numeric: "always", style });
      for (const n of samples.values()) {
        const parts = rtf.formatToParts(-n, unit);
        const i = parts.findIndex((p) => p.type === "integer");
        if (i < 0) {
          // A form that says its number in words ("قبل شهرين", two
          // months ago): the phrase and its count, "{=2}".
          const s = lower(parts.map((p) => p.value).join(""), l);
          if (!/\d/.test(s)) set.add(s + " {=" + n + "}");
          continue;
        }
        const before = parts.slice(0, i).map((p) => p.value).join("");
        let j = i;
        while (j + 1 < parts.length && parts[j + 1].type !== "literal") j++;
        const after = parts.slice(j + 1).map((p) => p.value).join("");
        set.add((fold(before, l) + "{0}" + fold(after, l)).trim());
        // The number in brackets after such a form ("לפני שעתיים (2)"):
        // the form alone says it.
        if (/\($/.test(before) && /^\)/.test(after) && after.trim() === ")") set.add(lower(before.replace(/\($/, ""), l) + " {=" + n + "}");
      }
    }
    past.push([...set]);
  }
  // Relative day words: "yesterday" (1), "today" (0), "the day before
  // yesterday" (2), "now" (-1), where the language has a word for them.
  const days = [];
  const auto = new Intl.RelativeTimeFormat(g, { numeric: "auto" });
  const always = new Intl.RelativeTimeFormat(g, { numeric: "always" });
  for (const [n, back] of [[-1, 1], [0, 0], [-2, 2]]) {
    const w = lower(auto.format(n, "day"), l);
    if (w !== lower(always.format(n, "day"), l) && !/\d/.test(w)) days.push([w, back]);
  }
  const nowWord = lower(auto.format(0, "second"), l);
  if (!/\d/.test(nowWord)) days.push([nowWord, -1]); // now itself
  // Words of a 12-hour clock's halves and day periods ("PM", "सुबह",
  // "下午"): those of morning hours are am, of afternoon and evening
  // hours pm; a word of both (night) is neither.
  const periods = (hours) => {
    const set = new Set();
    for (const h of hours) for (const dayPeriod of [undefined, "narrow", "short", "long"]) {
      const o = { hour: "numeric", minute: "2-digit", hourCycle: "h12", timeZone: "UTC" };
      if (dayPeriod) o.dayPeriod = dayPeriod;
      const p = new Intl.DateTimeFormat(g, o).formatToParts(new Date(Date.UTC(2021, 0, 1, h, 5))).find((x) => x.type === "dayPeriod");
      if (p) set.add(lower(p.value, l));
    }
    return set;
  };
  const amSet = periods([2, 8, 10]), pmSet = periods([14, 17, 20, 23]);
  const am = [...periods([8, 10])].filter((w) => !pmSet.has(w));
  const pm = [...periods([14, 17, 20])].filter((w) => !amSet.has(w));
  // Words of the night, of hours on both sides of midnight ("রাত"): 12
  // with them is midnight, 6 to 11 evening hours.
  const night = [...periods([0, 2, 23])].filter((w) => amSet.has(w) && pmSet.has(w));
  const order = new Intl.DateTimeFormat(g, { dateStyle: "short", timeZone: "UTC" }).formatToParts(new Date(Date.UTC(2021, 10, 23)))
    .filter((p) => ["day", "month", "year"].includes(p.type)).map((p) => p.type[0]).join("");
  out.push({ l, months, weekdays, past, days, order, am, pm, night });
}

// Format characters (zero-width joiners and spaces) escaped, as Go's linters want them.
const q = (s) => JSON.stringify(s).replace(/\p{Cf}/gu, (c) => "\\u" + c.codePointAt(0).toString(16).padStart(4, "0"));
const list = (a) => "{" + a.map(q).join(", ") + "}";
let src = "// Code generated by scripts/gen/cldr-dates.mjs from ICU " + process.versions.icu + " (CLDR " +
  process.versions.cldr + "); DO NOT EDIT.\n\npackage kb\n\n// cldrLocaleTable builds the date words of CLDR per language (cldrLocales\n// holds them, built on first use).\nfunc cldrLocaleTable() map[string]cldrLocale {\nreturn map[string]cldrLocale{\n";
for (const x of out) {
  src += `\t${q(x.l.toLowerCase())}: {\n\t\tmonths: [12][]string{${x.months.map(list).join(", ")}},\n`;
  src += `\t\tweekdays: [7][]string{${x.weekdays.map(list).join(", ")}},\n`;
  src += `\t\tpast: [7][]string{${x.past.map(list).join(", ")}},\n`;
  src += `\t\tdays: map[string]int{${x.days.map(([w, n]) => q(w) + ": " + n).join(", ")}},\n`;
  src += `\t\tam: []string${list(x.am)}, pm: []string${list(x.pm)}, night: []string${list(x.night)},\n`;
  src += `\t\torder: ${q(x.order)},\n\t},\n`;
}
src += "}\n}\n";
const file = new URL("../../kb/cldr_dates_gen.go", import.meta.url);
writeFileSync(file, src);
execFileSync("gofmt", ["-w", file.pathname]);
console.log(out.length, "languages");
