// The code editor of exercises and the scratch cell: CodeMirror 6, bundled by
// esbuild into dist/editor.js (xtask/src/site.rs) and loaded by the page's head
// script when an editor first comes near the screen (index.html, ihEditor).
//
// The app keeps a <textarea> per editor and reads and writes it as before; this
// module puts a CodeMirror view in front of it and keeps the two equal: typing in
// the view writes the textarea and fires its `input` event (the app saves the
// code), and a value the app or a test sets on the textarea flows into the view.
import { Compartment, EditorState, StateEffect, StateField } from '@codemirror/state';
import {
  Decoration, EditorView, drawSelection, highlightActiveLine, keymap, lineNumbers,
} from '@codemirror/view';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import {
  HighlightStyle, StreamLanguage, bracketMatching, indentOnInput, indentUnit, syntaxHighlighting,
} from '@codemirror/language';
import { tags as t } from '@lezer/highlight';
import { python as pythonMode } from '@codemirror/legacy-modes/mode/python';

const python = StreamLanguage.define(pythonMode);

// Rhai: Rust-like tokens, plus `fn` without types, backtick strings and `print`.
const RHAI_KEYWORDS = new Set(['fn', 'let', 'const', 'if', 'else', 'while', 'loop', 'for', 'in',
  'do', 'until', 'break', 'continue', 'return', 'throw', 'try', 'catch', 'switch', 'import',
  'export', 'as', 'private', 'global', 'this', 'is_def_var', 'Fn', 'call', 'curry']);
const RHAI_ATOMS = new Set(['true', 'false', '()']);
const rhai = StreamLanguage.define({
  name: 'rhai',
  startState: () => ({ inBlock: false }),
  token(stream, state) {
    if (state.inBlock) {
      if (stream.skipTo('*/')) { stream.next(); stream.next(); state.inBlock = false; } else stream.skipToEnd();
      return 'blockComment';
    }
    if (stream.eatSpace()) return null;
    if (stream.match('//')) { stream.skipToEnd(); return 'lineComment'; }
    if (stream.match('/*')) { state.inBlock = true; return 'blockComment'; }
    if (stream.match(/^(0x[0-9a-fA-F_]+|[0-9][0-9_]*(\.[0-9_]+)?([eE][+-]?[0-9]+)?)/)) return 'number';
    const q = stream.peek();
    if (q === '"' || q === '`' || q === "'") {
      stream.next();
      let escaped = false, ch;
      while ((ch = stream.next()) != null) {
        if (ch === q && !escaped) break;
        escaped = !escaped && ch === '\\';
      }
      return 'string';
    }
    if (stream.match(/^[A-Za-z_][A-Za-z0-9_]*/)) {
      const w = stream.current();
      if (RHAI_KEYWORDS.has(w)) return 'keyword';
      if (RHAI_ATOMS.has(w)) return 'atom';
      if (stream.match(/^\s*\(/, false)) return 'variableName.function';
      return 'variableName';
    }
    if (stream.match(/^[+\-*/%=<>!&|^]+/)) return 'operator';
    stream.next();
    return null;
  },
  languageData: { commentTokens: { line: '//', block: { open: '/*', close: '*/' } } },
});

// Colours from the book's CSS variables, so both themes hold.
const style = HighlightStyle.define([
  { tag: [t.keyword, t.controlKeyword, t.definitionKeyword, t.modifier], color: 'var(--kw)' },
  { tag: [t.string, t.special(t.string)], color: 'var(--str)' },
  { tag: [t.number, t.bool, t.atom], color: 'var(--num)' },
  { tag: [t.comment, t.lineComment, t.blockComment], color: 'var(--com)', fontStyle: 'italic' },
  { tag: [t.function(t.variableName), t.function(t.propertyName), t.macroName], color: 'var(--mac)' },
  { tag: [t.typeName, t.className], color: 'var(--ty)' },
]);

// The line a verdict points at (a syntax error, a runtime error), marked.
const markLine = StateEffect.define();
const marked = StateField.define({
  create: () => Decoration.none,
  update(deco, tr) {
    deco = deco.map(tr.changes);
    for (const e of tr.effects) {
      if (e.is(markLine)) {
        deco = e.value == null ? Decoration.none
          : Decoration.set([Decoration.line({ class: 'cm-error-line', attributes: { title: 'the error is on this line' } }).range(e.value)]);
      }
    }
    // Editing the code clears the mark: it described the code that ran.
    return tr.docChanged ? Decoration.none : deco;
  },
  provide: (f) => EditorView.decorations.from(f),
});

const theme = EditorView.theme({
  '&': { backgroundColor: 'var(--code-bg)', color: 'var(--fg)', fontSize: '.9rem' },
  '.cm-content': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', caretColor: 'var(--fg)', minHeight: '12rem' },
  '.cm-gutters': { backgroundColor: 'var(--code-bg)', color: 'var(--muted)', borderRight: '1px solid var(--rule)' },
  '.cm-activeLine': { backgroundColor: 'color-mix(in srgb, var(--accent) 7%, transparent)' },
  '.cm-error-line': { backgroundColor: 'color-mix(in srgb, var(--bad) 12%, transparent)' },
  '&.cm-focused': { outline: '2px solid var(--accent)', outlineOffset: '2px' },
  '.cm-matchingBracket': { backgroundColor: 'color-mix(in srgb, var(--accent) 25%, transparent)' },
});

const native = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value');

// The textarea's `data-lang` ("python", else Rhai) picks the highlighting; the
// app changes it when the reader switches an exercise's language.
const languageOf = (textarea) => (textarea.dataset.lang === 'python' ? python : rhai);

/** Puts an editor for Rhai or Python code (Rust sources are highlighted at
 * build time) in front of `textarea`. */
export function mount(textarea) {
  if (textarea._ihView) return textarea._ihView;
  const wrap = textarea.closest('.editor-wrap') || textarea.parentElement;
  let fromView = false;
  const language = new Compartment();
  const view = new EditorView({
    state: EditorState.create({
      doc: textarea.value,
      extensions: [
        lineNumbers(), history(), drawSelection(), highlightActiveLine(), bracketMatching(),
        indentOnInput(), indentUnit.of('    '), EditorView.lineWrapping,
        language.of(languageOf(textarea)), syntaxHighlighting(style), theme, marked,
        keymap.of([
          { key: 'Mod-Enter', run: () => { runOf(textarea); return true; } },
          indentWithTab, ...defaultKeymap, ...historyKeymap,
        ]),
        EditorView.contentAttributes.of({ 'aria-label': textarea.getAttribute('aria-label') || 'code editor', 'aria-describedby': textarea.getAttribute('aria-describedby') || '' }),
        EditorView.updateListener.of((u) => {
          if (!u.docChanged) return;
          fromView = true;
          native.set.call(textarea, u.state.doc.toString());
          textarea.dispatchEvent(new Event('input', { bubbles: true }));
          fromView = false;
        }),
      ],
    }),
  });
  const sync = () => {
    const v = native.get.call(textarea);
    if (!fromView && v !== view.state.doc.toString()) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: v } });
    }
  };
  // The app sets the textarea's value (reset, open in scratch); so can a test.
  Object.defineProperty(textarea, 'value', {
    configurable: true,
    get() { return native.get.call(this); },
    set(v) { native.set.call(this, v); sync(); },
  });
  textarea.addEventListener('input', sync);
  const hadFocus = document.activeElement === textarea;
  wrap.classList.add('has-cm');
  textarea.setAttribute('tabindex', '-1');
  textarea.setAttribute('aria-hidden', 'true');
  wrap.appendChild(view.dom);
  if (hadFocus) {
    // The reader was typing in the textarea when the editor arrived: keep
    // their caret and selection, so the next keystrokes land where they were
    // (not at the start of the code).
    const len = view.state.doc.length;
    const clamp = (n) => Math.max(0, Math.min(len, n | 0));
    view.dispatch({ selection: { anchor: clamp(textarea.selectionStart), head: clamp(textarea.selectionEnd) } });
    view.focus();
  }
  new MutationObserver(() => view.dispatch({ effects: language.reconfigure(languageOf(textarea)) }))
    .observe(textarea, { attributes: true, attributeFilter: ['data-lang'] });
  textarea._ihView = view;
  return view;
}

/** Marks the line a verdict's message names ("line 3", in Chinese "第 3 行"), or clears the mark. */
export function mark(textarea, message) {
  const view = textarea._ihView;
  if (!view) return;
  const m = /\bline (\d+)|第 (\d+) 行/.exec(message || '');
  const n = m ? Number(m[1] || m[2]) : 0;
  const line = n >= 1 && n <= view.state.doc.lines ? view.state.doc.line(n).from : null;
  view.dispatch({ effects: markLine.of(line) });
}

function runOf(textarea) {
  // The same as Ctrl/Cmd+Enter in the textarea: the app's handler runs the code.
  textarea.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', ctrlKey: true, bubbles: true, cancelable: true }));
}
