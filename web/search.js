// Search across the book: a dialog over Pagefind's index (dist/pagefind/, written
// by `cargo xtask build` from the pre-rendered chapters). The page loads this
// module on the first `/`, Ctrl/Cmd+K or click on the header's Search button
// (index.html), and this module loads Pagefind, whose index arrives in fragments
// as queries need them. Nothing here runs on a page's first load.

const MAX_PAGES = 8;
const PER_PAGE = 3;
// Words too common to say which section a query is about.
const STOP = new Set(['the', 'a', 'an', 'of', 'and', 'or', 'to', 'in', 'on', 'is', 'for', 'what', 'how', 'it', 'its', 'by', 'with', 'at', 'as']);

// The dialog's words in the page's language (the Chinese edition is `zh-CN`).
const ZH = document.documentElement.lang === 'zh-CN';
const T = ZH
  ? {
    label: '搜索全书', placeholder: '搜索全书', close: '关闭',
    hint: '↑ ↓ 移动，Enter 打开，Esc 关闭。搜索各章正文、练习和可调用的函数。',
    none: (q) => `没有找到“${q}”。`, found: (n, q) => `“${q}”：${n} 条结果`,
    failed: (m) => `搜索加载失败：${m}。请刷新页面再试。`,
  }
  : {
    label: 'Search the book', placeholder: 'Search the book', close: 'Close',
    hint: '↑ ↓ to move, Enter to open, Esc to close. Searches the text, exercises and the scripting functions of every chapter.',
    none: (q) => `Nothing found for “${q}”.`, found: (n, q) => `${n} result${n === 1 ? '' : 's'} for “${q}”`,
    failed: (m) => `Search could not load: ${m}. Reload the page to try again.`,
  };

let engine = null;
let dialog = null;
let seq = 0;

function pagefind() {
  if (!engine) {
    engine = import('/pagefind/pagefind.js').then(async (pf) => {
      await pf.options({ excerptLength: 22 });
      await pf.init();
      return pf;
    });
    engine.catch(() => { engine = null; });
  }
  return engine;
}

// Pagefind names pages by file (`/ch/kvcache.html#mla`); the book's routes
// have no extension (`/ch/kvcache#mla`).
function route(url) {
  return url.replace(/\/index\.html(?=$|#)/, '/').replace(/\.html(?=$|#)/, '');
}

function el(tag, attrs, children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  for (const c of children || []) e.append(c);
  return e;
}

function build() {
  const input = el('input', {
    id: 'search-input', type: 'search', placeholder: T.placeholder, autocomplete: 'off',
    spellcheck: 'false', 'aria-controls': 'search-results', 'aria-describedby': 'search-status',
  });
  const close = el('button', { type: 'button', class: 'secondary search-close' }, [T.close]);
  const status = el('p', { id: 'search-status', class: 'search-status muted small', 'aria-live': 'polite' });
  const list = el('ol', { id: 'search-results', class: 'search-results' });
  const hint = el('p', { class: 'search-hint muted small' }, [T.hint]);
  const d = el('dialog', { id: 'search', class: 'search-dialog', 'aria-label': T.label }, [
    el('div', { class: 'search-bar', role: 'search' }, [
      el('label', { for: 'search-input', class: 'sr-only' }, [T.label]), input, close]),
    status, list, hint,
  ]);
  close.addEventListener('click', () => d.close());
  // A click on the backdrop (outside the dialog's box) closes it.
  d.addEventListener('click', (e) => {
    if (e.target !== d) return;
    const r = d.getBoundingClientRect();
    if (e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom) d.close();
  });
  let timer = null;
  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => search(input.value), 80);
  });
  d.addEventListener('keydown', (e) => {
    const links = [...list.querySelectorAll('a.search-result')];
    const at = links.indexOf(document.activeElement);
    if (e.key === 'Escape') {
      // A search box would take the first Esc to clear itself: close at once.
      e.preventDefault();
      d.close();
    } else if (e.key === 'ArrowDown') {
      e.preventDefault();
      (links[at + 1] || links[0] || input).focus();
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      (at <= 0 ? input : links[at - 1]).focus();
    } else if (e.key === 'Enter' && document.activeElement === input && links[0]) {
      e.preventDefault();
      links[0].click();
    }
  });
  list.addEventListener('click', (e) => {
    const a = e.target.closest('a.search-result');
    if (!a) return;
    // A result on this page: close the dialog so the jump is seen.
    const u = new URL(a.href, location.href);
    if (u.pathname === location.pathname) d.close();
  });
  document.body.append(d);
  return d;
}

// Pagefind's excerpt is text with <mark> around the matches: keep exactly
// that (text and marks), whatever else the string might hold.
function marked(html) {
  const t = document.createElement('template');
  t.innerHTML = html;
  const out = [];
  for (const n of t.content.childNodes) {
    if (n.nodeName === 'MARK') out.push(el('mark', {}, [n.textContent]));
    else out.push(document.createTextNode(n.textContent));
  }
  return out;
}

function show(list, status, groups, query, ms) {
  list.replaceChildren();
  let n = 0;
  for (const { page, subs } of groups) {
    for (const sub of subs) {
      n += 1;
      const where = el('span', { class: 'search-where' }, [
        el('span', { class: 'search-chapter' }, [page.meta.title || route(page.url)]),
      ]);
      if (sub.title && sub.title !== page.meta.title) {
        where.append(' › ', el('span', { class: 'search-section' }, [sub.title]));
      }
      const excerpt = el('span', { class: 'search-excerpt' }, marked(sub.excerpt));
      list.append(el('li', {}, [el('a', { class: 'search-result', href: route(sub.url) }, [where, excerpt])]));
    }
  }
  status.textContent = n === 0 ? T.none(query) : T.found(n, query);
  status.dataset.ms = String(ms);
}

// Whether a word Pagefind marked in an excerpt is the query's word `w`: the
// mark contains `w` ("attention" for "attent"), or shares its stem (Pagefind
// stems English: "cache" for "caches", "routed" for "routing": a common start
// of at least 3 letters, all but the last 2 of the shorter word), or, in
// Chinese, is one of the words the index cut `w` into (滑动 for 滑动窗口).
function matches(mark, w) {
  if (mark.includes(w)) return true;
  if (/[\u3400-\u9fff]/.test(mark)) return w.includes(mark);
  let p = 0;
  while (p < mark.length && p < w.length && mark[p] === w[p]) p++;
  return p >= Math.max(3, Math.min(mark.length, w.length) - 2);
}

async function search(query) {
  const mine = ++seq;
  const list = dialog.querySelector('.search-results');
  const status = dialog.querySelector('.search-status');
  const q = query.trim();
  if (!q) {
    list.replaceChildren();
    status.textContent = '';
    return;
  }
  const t0 = performance.now();
  let pf;
  try {
    pf = await pagefind();
  } catch (e) {
    if (mine === seq) status.textContent = T.failed(e.message);
    return;
  }
  const found = await pf.search(q);
  if (mine !== seq || !found) return;
  const pages = await Promise.all(found.results.slice(0, MAX_PAGES).map((r) => r.data()));
  if (mine !== seq) return;
  // Pagefind ranks pages well but gives a page's sections in page order, and its
  // match counts include common words. Rank sections by the query's words in
  // their heading, then in their excerpt, then by the page's rank; keep the
  // best few of each page.
  const words = q.toLowerCase().split(/\s+/).filter((w) => w.length > 1 && !STOP.has(w));
  const scored = [];
  pages.forEach((page, rank) => {
    const subs = page.sub_results && page.sub_results.length ? page.sub_results : [page];
    subs
      .map((sub) => {
        const title = (sub.title || '').toLowerCase();
        const marks = new Set((sub.excerpt.match(/<mark>[^<]*<\/mark>/g) || []).map((m) => m.slice(6, -7).toLowerCase()));
        const inTitle = words.filter((w) => title.includes(w)).length;
        const inText = words.filter((w) => [...marks].some((m) => matches(m, w))).length;
        return { page, sub, hit: inTitle + inText > 0, score: inTitle * 1000 + inText * 100 + (MAX_PAGES - rank) * 10 + Math.min(9, (sub.locations || []).length) };
      })
      // A section none of whose marks is one of the query's words is no match
      // (Pagefind answers `xqzzvv` with a page where it marked a lone "x"); a
      // query of stop words and single letters keeps what Pagefind found.
      .filter((r) => r.hit || words.length === 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, PER_PAGE)
      .forEach((r) => scored.push(r));
  });
  scored.sort((a, b) => b.score - a.score);
  const groups = scored.map(({ page, sub }) => ({ page, subs: [sub] }));
  show(list, status, groups, q, performance.now() - t0);
  dialog.dataset.query = q;
}

// Opens the dialog (the index starts loading now, while the reader types).
export function open() {
  if (!dialog) dialog = build();
  const input = dialog.querySelector('#search-input');
  if (!dialog.open) dialog.showModal();
  input.focus();
  input.select();
  pagefind().catch(() => {});
}
