//! The Inference Handbook's single-page app: mounts [`app::App`].

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(app::App);
}
