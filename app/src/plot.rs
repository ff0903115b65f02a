//! The only place that knows plotly: turns a demo's plain series (or heatmap)
//! into a plotly.js figure (data, layout, config) written as JSON here, and
//! hands it to `window.ihPlot` (web/page.js), which loads plotly.js on first
//! use and fits the figure to the theme and the chart's width when it draws.
//! (The `plotly` crate's typed builders made the same JSON for about 77 KB of
//! the page's module and 28 s of a fresh compile: #25.)

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

fn title(text: &str) -> Value {
    json!({ "text": text })
}

fn axis(title_text: &str, log: bool) -> Value {
    if log {
        // One tick per power of ten: the 2s and 5s between them crowd a narrow chart.
        json!({ "title": title(title_text), "type": "log", "dtick": 1.0 })
    } else {
        json!({ "title": title(title_text), "type": "linear" })
    }
}

/// What plotly.js draws a demo plot from (its words are the demo's, already in
/// the page's language).
pub fn figure_value(p: &chapters::demo::Plot) -> Value {
    let mut layout = json!({
        "title": { "text": p.title, "font": { "size": 14 } },
        "height": p.height(),
        "margin": { "l": 60, "r": 10, "t": 40, "b": 50 },
    });
    let data: Vec<Value> = if let Some(h) = &p.heatmap {
        // plotly draws the first row at the bottom; readers expect it on top.
        let y: Vec<&String> = h.y.iter().rev().collect();
        let z: Vec<&Vec<f64>> = h.z.iter().rev().collect();
        let mut trace = json!({
            "type": "heatmap",
            "x": h.x,
            "y": y,
            "z": z,
            "colorscale": "Viridis",
            "colorbar": { "title": title(&h.z_label) },
            "hovertemplate": format!(
                "{}: %{{y}}<br>{}: %{{x}}<br>%{{z:.4g}}<extra></extra>",
                p.y_label, p.x_label
            ),
        });
        if let Some((lo, hi)) = h.z_range {
            trace["zmin"] = json!(lo);
            trace["zmax"] = json!(hi);
        }
        let mut x_axis = json!({ "title": title(&p.x_label), "type": "category" });
        if h.x.len() > 24 {
            // Hundreds of columns (experts): a label every so often, upright.
            x_axis["nticks"] = json!(16);
            x_axis["tickangle"] = json!(0.0);
        }
        layout["xaxis"] = x_axis;
        layout["yaxis"] = json!({ "title": title(&p.y_label), "type": "category" });
        vec![trace]
    } else {
        layout["xaxis"] = axis(&p.x_label, p.log_x);
        layout["yaxis"] = axis(&p.y_label, p.log_y);
        layout["legend"] = json!({ "orientation": "h", "x": 0.0 });
        p.series
            .iter()
            .map(|s| {
                if s.bars {
                    json!({ "type": "bar", "x": s.x, "y": s.y, "name": s.name })
                } else {
                    json!({
                        "type": "scatter",
                        "x": s.x,
                        "y": s.y,
                        "name": s.name,
                        "mode": "lines+markers",
                        "line": { "dash": if s.dashed { "dash" } else { "solid" } },
                    })
                }
            })
            .collect()
    };
    // No toolbar: its one useful button (download as PNG) sat inside the
    // chart's `role="img"`, a control no keyboard could reach and one a
    // screen reader must not find there (axe-core's nested-interactive).
    // The data table under each chart is its text alternative.
    let config = json!({
        "responsive": true,
        "displaylogo": false,
        // plotly.js 4 adds "Share chart...", which uploads the figure to
        // Plotly Cloud: nothing here leaves the reader's machine.
        "showSendToCloud": false,
        "showEditInChartStudio": false,
        "displayModeBar": false,
    });
    json!({ "data": data, "layout": layout, "config": config })
}

/// [`figure_value`] as JSON.
pub fn figure(p: &chapters::demo::Plot) -> String {
    figure_value(p).to_string()
}

/// A chart for a demo plot, with its data as a table under a fold (the chart's
/// text alternative; print opens it).
#[component]
pub fn Chart(plot: chapters::demo::Plot) -> impl IntoView {
    let node = NodeRef::<Div>::new();
    let fig = figure(&plot);
    Effect::new(move |_| {
        if let Some(el) = node.get() {
            ih_plot(&el, &fig);
        }
    });
    let (header, rows) = plot.data_table();
    let summary = crate::lang::trf!(chrome_chart_data, title = plot.title, rows = rows.len());
    // Until the chart is drawn (`data-drawn`, web/page.js): on the page as
    // built, and while plotly loads.
    let pending = crate::lang::trf!(chrome_chart_pending, title = plot.title);
    view! {
        <figure class="chart-figure">
            <div class="chart" class:heatmap=plot.heatmap.is_some() style=format!("height:{}px", plot.height())
                node_ref=node role="img" aria-label=plot.title.clone()>
                <p class="chart-pending muted small">{pending}</p>
            </div>
            <details class="chart-data">
                <summary>{summary}</summary>
                <DataTable header rows/>
            </details>
        </figure>
    }
}

/// Whether a table cell reads as a sentence rather than a value: four words
/// or more, or any Chinese. A column with such a cell is aligned left, like
/// text; values stay right-aligned, digits under digits (#30).
fn is_prose(cell: &str) -> bool {
    cell.split_whitespace().count() >= 4
        || cell.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

/// A table of a cell's output or a chart's data.
#[component]
pub fn DataTable(header: Vec<String>, rows: Vec<Vec<String>>) -> impl IntoView {
    let prose: Vec<bool> = (0..header.len())
        .map(|i| rows.iter().any(|r| r.get(i).is_some_and(|c| is_prose(c))))
        .collect();
    view! {
        // Focusable, so a keyboard can scroll a table wider than the column.
        <div class="table-wrap" tabindex="0">
            <table class="cell-table">
                <thead><tr>{header.into_iter().map(|h| view! { <th>{h}</th> }).collect_view()}</tr></thead>
                <tbody>
                    {rows.into_iter().map(|r| view! {
                        <tr>{r.into_iter().enumerate().map(|(i, c)| {
                            // (No `class` at all on a value: the built page's
                            // renderer would write an empty one.)
                            if prose.get(i).copied().unwrap_or(false) {
                                view! { <td class="prose">{c}</td> }.into_any()
                            } else {
                                view! { <td>{c}</td> }.into_any()
                            }
                        }).collect_view()}</tr>
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}
