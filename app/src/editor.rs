//! The code editor in front of each exercise's and the scratch cell's
//! textarea: CodeMirror, loaded by the page's script (`window.ihEditor`,
//! web/page.js) from `dist/editor.js` when an editor first comes near the
//! screen. The textarea stays the app's source of truth; the editor keeps it
//! equal to what the reader types, and a value set on it shows in the editor.

use leptos::html::Textarea;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = window, js_name = ihEditor)]
    fn ih_editor(el: &web_sys::HtmlTextAreaElement);
    #[wasm_bindgen(js_namespace = window, js_name = ihEditorMark)]
    fn ih_editor_mark(el: &web_sys::HtmlTextAreaElement, message: &str);
}

/// Puts the editor in front of the textarea once it is mounted.
pub fn enhance(node: NodeRef<Textarea>) {
    Effect::new(move |done: Option<bool>| {
        if done == Some(true) {
            return true;
        }
        match node.get() {
            Some(el) => {
                ih_editor(&el);
                true
            }
            None => false,
        }
    });
}

/// Marks the line a verdict or error message names ("line 3"); clears the
/// mark when it names none.
pub fn mark(node: NodeRef<Textarea>, message: &str) {
    if let Some(el) = node.get_untracked() {
        ih_editor_mark(&el, message);
    }
}
