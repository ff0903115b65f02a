// "Download notebook" (issue #11 §2): the chapter as a Jupyter notebook for the
// evcxr Rust kernel, with each cell's call carrying the values the reader has
// in that cell's inputs now. The build writes dist/nb/<slug>.ipynb with the
// defaults (xtask/src/notebook.rs); each call cell's metadata holds a template
// with {{param:NAME}} placeholders, filled here with Rust string literals.
// Loaded by the page's head script on the first click, so it works before the
// page's wasm has mounted: the inputs are in the pre-rendered HTML.

const META = "inference_handbook";

// A Rust string literal holding `s`, as xtask's `notebook::rust_literal` writes
// it: a raw string for several lines with no other control character, else a
// quoted string with escapes.
export function rustLiteral(s) {
  s = typeof s.toWellFormed === "function" ? s.toWellFormed() : s;
  const control = (c) => { const n = c.codePointAt(0); return n < 0x20 || (n >= 0x7f && n < 0xa0); };
  const chars = Array.from(s);
  if (s.includes("\n") && chars.every((c) => !control(c) || c === "\n" || c === "\t")) {
    let hashes = "";
    while (s.includes('"' + hashes)) hashes += "#";
    return "r" + hashes + '"' + s + '"' + hashes;
  }
  let out = '"';
  for (const c of chars) {
    if (c === "\\") out += "\\\\";
    else if (c === '"') out += '\\"';
    else if (c === "\n") out += "\\n";
    else if (c === "\r") out += "\\r";
    else if (c === "\t") out += "\\t";
    else if (control(c)) out += "\\u{" + c.codePointAt(0).toString(16) + "}";
    else out += c;
  }
  return out + '"';
}

// A cell's source as Jupyter stores it: lines, each with its newline but the last.
function lines(text) {
  const t = text.replace(/\n+$/, "");
  return t.match(/[^\n]*\n|[^\n]+$/g) || [];
}

// The notebook with the page's current values in its call cells and its
// site-relative links made absolute; how many call cells changed.
export function personalise(nb, doc, origin) {
  let changed = 0;
  for (const cell of nb.cells) {
    if (cell.cell_type === "markdown") {
      const src = Array.isArray(cell.source) ? cell.source.join("") : cell.source;
      cell.source = lines(src.split("](/").join("](" + origin + "/"));
      continue;
    }
    const meta = cell.metadata && cell.metadata[META];
    if (!meta || typeof meta.template !== "string") continue;
    let src = meta.template, complete = true;
    for (const name of meta.params) {
      const input = doc.getElementById(`cell-${meta.cell}-${name}`);
      if (!input) { complete = false; break; }
      src = src.split(`{{param:${name}}}`).join(rustLiteral(input.value));
    }
    // A cell the page does not show keeps the defaults the build wrote.
    if (!complete) continue;
    const before = Array.isArray(cell.source) ? cell.source.join("") : cell.source;
    cell.source = lines(src);
    if (cell.source.join("") !== before) changed++;
  }
  nb.metadata[META].source = origin + nb.metadata[META].page;
  return changed;
}

// The status line's words in the page's language.
const ZH = typeof document !== "undefined" && document.documentElement.lang === "zh-CN";
const WORDS = ZH ? {
  preparing: "正在生成 notebook……",
  failed: (why) => `notebook 没能下载：${why}。请检查网络后重试。`,
  server: (status) => `服务器返回了 ${status}`,
  yours: (file, n) => `已下载 ${file}，其中 ${n} 个单元格用的是你填的值。`,
  defaults: (file) => `已下载 ${file}，单元格用的是默认值。`,
} : {
  preparing: "Preparing the notebook…",
  failed: (why) => `The notebook could not be downloaded: ${why}. Check your connection and try again.`,
  server: (status) => `the server answered ${status}`,
  yours: (file, n) => `Downloaded ${file} with your values in ${n} cell${n === 1 ? "" : "s"}.`,
  defaults: (file) => `Downloaded ${file} with the cells' default values.`,
};

// Shows `text` in the status line beside `link` (an alert when `error`).
function say(link, text, error) {
  let box = link.parentElement.querySelector(".notebook-status");
  if (!box) {
    box = document.createElement("span");
    box.className = "notebook-status";
    link.parentElement.appendChild(box);
  }
  box.setAttribute("role", error ? "alert" : "status");
  box.classList.toggle("error", !!error);
  box.textContent = text;
}

// Downloads the chapter's notebook as `<slug>.ipynb`, filled in from the page.
export async function download(link) {
  const slug = link.dataset.notebook;
  say(link, WORDS.preparing, false);
  let nb;
  try {
    const res = await fetch(`/nb/${slug}.ipynb`, { cache: "no-cache" });
    if (!res.ok) throw new Error(WORDS.server(`${res.status} ${res.statusText}`.trim()));
    nb = await res.json();
  } catch (e) {
    say(link, WORDS.failed(e.message || e), true);
    return;
  }
  const changed = personalise(nb, document, location.origin);
  const blob = new Blob([JSON.stringify(nb, null, 1) + "\n"], { type: "application/x-ipynb+json" });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = `${slug}.ipynb`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
  say(link, changed ? WORDS.yours(`${slug}.ipynb`, changed) : WORDS.defaults(`${slug}.ipynb`), false);
}
