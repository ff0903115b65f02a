//! The only place that knows plotly: turns a demo's plain series into a plotly
//! figure and hands it to `window.ihPlot` (index.html), which loads plotly.js
//! on first use.

use leptos::html::Div;
use leptos::prelude::*;
use serde_json::{Value, json};
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = window, js_name = ihPlot)]
    fn ih_plot(el: &web_sys::HtmlElement, figure: &str);
    #[wasm_bindgen(js_namespace = window, js_name = ihRestyle)]
    fn ih_restyle();
}

/// Re-colours every drawn chart after a theme change.
pub fn restyle_all() {
    ih_restyle();
}

/// The plotly figure (data, layout, config) for a demo plot.
pub fn figure(p: &chapters::demo::Plot) -> Value {
    let data: Vec<Value> = p
        .series
        .iter()
        .map(|s| {
            if s.bars {
                json!({ "type": "bar", "name": s.name, "x": s.x, "y": s.y })
            } else {
                json!({
                    "type": "scatter", "mode": "lines+markers", "name": s.name, "x": s.x, "y": s.y,
                    "line": { "dash": if s.dashed { "dash" } else { "solid" } }
                })
            }
        })
        .collect();
    let axis = |title: &str, log: bool| json!({ "title": { "text": title }, "type": if log { "log" } else { "linear" }, "automargin": true });
    json!({
        "data": data,
        "layout": {
            "title": { "text": p.title, "font": { "size": 14 } },
            "xaxis": axis(&p.x_label, p.log_x),
            "yaxis": axis(&p.y_label, p.log_y),
            "margin": { "l": 50, "r": 10, "t": 40, "b": 10 },
            "legend": { "orientation": "h", "x": 0, "y": -0.22, "yanchor": "top" },
            "height": 360,
        },
        "config": { "responsive": true, "displaylogo": false },
    })
}

/// A chart for a demo plot.
#[component]
pub fn Chart(plot: chapters::demo::Plot) -> impl IntoView {
    let node = NodeRef::<Div>::new();
    let fig = figure(&plot).to_string();
    Effect::new(move |_| {
        if let Some(el) = node.get() {
            ih_plot(&el, &fig);
        }
    });
    view! { <div class="chart" node_ref=node role="img" aria-label=plot.title.clone()></div> }
}
