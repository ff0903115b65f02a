//! Shareable links: a cell's parameters or a learner's code carried in the
//! address's fragment, `#cell-<id>?s=<payload>` or `#exercise-<slug>?s=<payload>`.
//!
//! The part before `?` is the element the page lands on (a permalink); the
//! payload is JSON compressed by the browser's own `CompressionStream`
//! (deflate-raw) and base64url-encoded, through the small `ihShare` helper in
//! `web/page.js` (no compressor in the wasm). Opening such a link shows what it
//! carries and never overwrites what the reader saved unless they choose to.

use crate::lang::{tr, trf};
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

/// The longest payload a link may carry (characters of the fragment): past
/// this, browsers and chat tools start cutting addresses.
pub const MAX_PAYLOAD: usize = 16_000;

/// The longest value (a parameter, a solution) a shared link may set, in bytes.
pub const MAX_VALUE: usize = 20_000;

thread_local! {
    static HASH: std::cell::OnceCell<RwSignal<String>> = const { std::cell::OnceCell::new() };
}

fn current_hash() -> String {
    crate::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// The address's fragment, kept up to date: a shared link pasted over this
/// same page changes only the fragment (no reload), and the cells and
/// exercises it names must still see it. On such a change the page also lands
/// on the anchor, which the browser cannot find by itself (`cell-x?s=…` is no
/// element's id). Created on first use; [`crate::islands::mount_all`] makes it
/// before mounting, outside any island's owner.
pub fn hash() -> RwSignal<String> {
    HASH.with(|h| {
        *h.get_or_init(|| {
            let signal = RwSignal::new(current_hash());
            if let Some(w) = crate::window() {
                let on_change = Closure::<dyn FnMut()>::new(move || {
                    let now = current_hash();
                    let id = anchor_of(now.trim_start_matches('#')).to_owned();
                    signal.set(now);
                    crate::land_on(&id);
                });
                let _ = w.add_event_listener_with_callback(
                    "hashchange",
                    on_change.as_ref().unchecked_ref(),
                );
                on_change.forget();
            }
            signal
        })
    })
}

/// The fragment's payload for the element `anchor` (`cell-ledger`), if the
/// address carries one for it. Tracked: an effect that reads it runs again
/// when the fragment changes.
pub fn incoming(anchor: &str) -> Option<String> {
    let hash = hash().get();
    let rest = hash.strip_prefix('#')?.strip_prefix(anchor)?;
    let payload = rest.strip_prefix("?s=")?;
    (!payload.is_empty()).then(|| payload.to_owned())
}

/// The element id a fragment names: `cell-ledger?s=…` → `cell-ledger`.
pub fn anchor_of(fragment: &str) -> &str {
    fragment.split('?').next().unwrap_or(fragment)
}

/// Calls `ihShare[method](arg, callback)`; the callback gets `(error, value)`.
fn call(method: &str, arg: &str, done: impl FnOnce(Result<String, String>) + 'static) {
    let helper = crate::window()
        .and_then(|w| js_sys::Reflect::get(&w, &JsValue::from_str("ihShare")).ok())
        .filter(|h| h.is_object());
    let Some(f) = helper.as_ref().and_then(|h| {
        js_sys::Reflect::get(h, &JsValue::from_str(method))
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
    }) else {
        done(Err(tr!(share_no_helper).to_owned()));
        return;
    };
    let cb = Closure::once_into_js(move |err: JsValue, value: JsValue| {
        if err.is_null() || err.is_undefined() {
            done(value.as_string().ok_or_else(|| "no value".to_owned()));
        } else {
            done(Err(err
                .as_string()
                .unwrap_or_else(|| tr!(share_unreadable).to_owned())));
        }
    });
    if let Some(h) = helper
        && f.call2(&h, &JsValue::from_str(arg), &cb).is_err()
    {
        // The callback is not called when the call itself threw.
        leptos::logging::warn!("ihShare.{method} threw");
    }
}

/// Decodes a payload back into the JSON text it carries.
pub fn decode(payload: &str, done: impl FnOnce(Result<String, String>) + 'static) {
    call("decode", payload, done);
}

/// What pressing Share has come to: the link and whether it was copied
/// (`None` while the clipboard has not answered), or why there is no link.
pub type Shared = Result<(String, Option<bool>), String>;

/// The address of this page at `anchor` carrying `json`, shown in `result` as
/// soon as it is made, then copied to the clipboard when the browser allows
/// it: a clipboard that never answers (or refuses) leaves the link on screen
/// to copy by hand.
pub fn share(anchor: &str, json: &str, result: RwSignal<Option<Shared>>) {
    let anchor = anchor.to_owned();
    call("encode", json, move |r| {
        let payload = match r {
            Ok(p) => p,
            Err(e) => return result.set(Some(Err(e))),
        };
        if payload.len() > MAX_PAYLOAD {
            return result.set(Some(Err(trf!(
                share_too_long,
                n = chapters::demo::group_u64(payload.len() as u64),
                max = chapters::demo::group_u64(MAX_PAYLOAD as u64)
            ))));
        }
        let Some(loc) = crate::window().map(|w| w.location()) else {
            return result.set(Some(Err(tr!(share_no_window).to_owned())));
        };
        let url = format!(
            "{}{}#{anchor}?s={payload}",
            loc.origin().unwrap_or_default(),
            loc.pathname().unwrap_or_default()
        );
        result.set(Some(Ok((url.clone(), None))));
        let copying = url.clone();
        call("copy", &copying, move |c| {
            // Only if the reader has not closed it or shared again meanwhile.
            let still = matches!(result.get_untracked(), Some(Ok((ref u, None))) if *u == url);
            if still {
                result.set(Some(Ok((url, Some(c.is_ok())))));
            }
        });
    });
}

/// Drops the payload from the address (keeps the anchor), so that a reload
/// does not offer the shared state again once the reader has answered.
pub fn forget(anchor: &str) {
    let Some(w) = crate::window() else { return };
    let now = w.location().hash().unwrap_or_default();
    if now.starts_with(&format!("#{anchor}?"))
        && let Ok(h) = w.history()
    {
        let _ = h.replace_state_with_url(&JsValue::NULL, "", Some(&format!("#{anchor}")));
        hash().set(format!("#{anchor}"));
    }
}

/// What a Share button shows after it is pressed: the link (selectable, in
/// case the clipboard was refused) and whether it was copied.
#[component]
pub fn ShareResult(result: RwSignal<Option<Shared>>) -> impl IntoView {
    move || {
        result.get().map(|r| match r {
            Ok((url, copied)) => view! {
                <div class="share-result" role="status">
                    <span>{match copied {
                        None => tr!(copying_link),
                        Some(true) => tr!(link_copied),
                        Some(false) => tr!(copy_link),
                    }}</span>
                    <input type="text" readonly class="share-url" aria-label=tr!(link_to_share) prop:value=url
                        on:focus=move |ev| {
                            if let Some(i) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) {
                                i.select();
                            }
                        }/>
                    <button type="button" class="secondary" on:click=move |_| result.set(None)>{tr!(close)}</button>
                </div>
            }
            .into_any(),
            Err(e) => view! { <p class="error share-result" role="alert">{trf!(share_failed, why = e)}</p> }
                .into_any(),
        })
    }
}

/// What a shared link that could not be read shows in its cell or exercise:
/// why, and Dismiss, which runs `on_dismiss` and drops the payload from the
/// address.
#[component]
pub fn DamagedLink(text: String, anchor: String, on_dismiss: Callback<()>) -> impl IntoView {
    view! {
        <div class="shared-note error" role="alert">
            <span>{text}</span>
            <button type="button" class="secondary" on:click=move |_| {
                on_dismiss.run(());
                forget(&anchor);
            }>{tr!(dismiss)}</button>
        </div>
    }
}
