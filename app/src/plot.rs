//! The only place that knows plotly: turns a demo's plain series (or heatmap)
//! into a figure with the `plotly` crate's typed API and hands its JSON to
//! `window.ihPlot` (web/page.js), which loads plotly.js on first use and fits
//! the figure to the theme and the chart's width when it draws.

use leptos::html::Div;
use leptos::prelude::*;
use plotly::common::{
    ColorBar, ColorScale, ColorScalePalette, DashType, Font, Line, Mode, Orientation, Title,
};
use plotly::configuration::{DisplayModeBar, ModeBarButtonName};
use plotly::layout::{Axis, AxisType, Legend, Margin};
use plotly::{Bar, Configuration, HeatMap, Layout, Scatter};
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

fn axis(title: &str, log: bool) -> Axis {
    let a = Axis::new().title(Title::with_text(title));
    if log {
        // One tick per power of ten: the 2s and 5s between them crowd a narrow chart.
        a.type_(AxisType::Log).dtick(1.0)
    } else {
        a.type_(AxisType::Linear)
    }
}

/// The plotly figure (data, layout, config) for a demo plot, as JSON.
pub fn figure(p: &chapters::demo::Plot) -> String {
    let mut plot = plotly::Plot::new();
    let mut layout = Layout::new()
        .title(Title::with_text(&p.title).font(Font::new().size(14)))
        .height(p.height())
        .margin(Margin::new().left(60).right(10).top(40).bottom(50));
    if let Some(h) = &p.heatmap {
        // plotly draws the first row at the bottom; readers expect it on top.
        let y: Vec<String> = h.y.iter().rev().cloned().collect();
        let z: Vec<Vec<f64>> = h.z.iter().rev().cloned().collect();
        let mut trace = HeatMap::new(h.x.clone(), y, z);
        if let Some((lo, hi)) = h.z_range {
            trace = trace.zmin(lo).zmax(hi);
        }
        plot.add_trace(
            trace
                .color_scale(ColorScale::Palette(ColorScalePalette::Viridis))
                .color_bar(ColorBar::new().title(Title::with_text(&h.z_label)))
                .hover_template(format!(
                    "{}: %{{y}}<br>{}: %{{x}}<br>%{{z:.4g}}<extra></extra>",
                    p.y_label, p.x_label
                )),
        );
        let mut x_axis = Axis::new()
            .title(Title::with_text(&p.x_label))
            .type_(AxisType::Category);
        if h.x.len() > 24 {
            // Hundreds of columns (experts): a label every so often, upright.
            x_axis = x_axis.n_ticks(16).tick_angle(0.0);
        }
        layout = layout.x_axis(x_axis).y_axis(
            Axis::new()
                .title(Title::with_text(&p.y_label))
                .type_(AxisType::Category),
        );
    } else {
        for s in &p.series {
            if s.bars {
                plot.add_trace(Bar::new(s.x.clone(), s.y.clone()).name(&s.name));
            } else {
                let dash = if s.dashed {
                    DashType::Dash
                } else {
                    DashType::Solid
                };
                plot.add_trace(
                    Scatter::new(s.x.clone(), s.y.clone())
                        .name(&s.name)
                        .mode(Mode::LinesMarkers)
                        .line(Line::new().dash(dash)),
                );
            }
        }
        layout = layout
            .x_axis(axis(&p.x_label, p.log_x))
            .y_axis(axis(&p.y_label, p.log_y))
            .legend(Legend::new().orientation(Orientation::Horizontal).x(0.0));
    }
    plot.set_layout(layout);
    // Only "download as PNG" stays in the toolbar; page.js takes it out of the
    // tab order (the data table under each chart is the keyboard's way in).
    use ModeBarButtonName::*;
    let config = match crate::lang::chapters_lang() {
        // web/page.js registers this plotly locale when plotly.js loads.
        chapters::Lang::Zh => Configuration::new().locale("zh-CN"),
        chapters::Lang::En => Configuration::new(),
    };
    plot.set_configuration(
        config
            .responsive(true)
            .display_logo(false)
            // plotly.js 4 adds "Share chart...", which uploads the figure to
            // Plotly Cloud: nothing here leaves the reader's machine.
            .show_send_to_cloud(false)
            .show_edit_in_chart_studio(false)
            .display_mode_bar(DisplayModeBar::Hover)
            .mode_bar_buttons_to_remove(vec![
                Zoom2d,
                Pan2d,
                Select2d,
                Lasso2d,
                ZoomIn2d,
                ZoomOut2d,
                AutoScale2d,
                ResetScale2d,
                HoverClosestCartesian,
                HoverCompareCartesian,
                ToggleSpikelines,
            ]),
    );
    plot.to_json()
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
    // The same words as the pre-rendered page's.
    let summary = crate::lang::trf!(chrome_chart_data, title = plot.title, rows = rows.len());
    view! {
        <figure class="chart-figure">
            <div class="chart" class:heatmap=plot.heatmap.is_some() style=format!("height:{}px", plot.height())
                node_ref=node role="img" aria-label=plot.title.clone()></div>
            <details class="chart-data">
                <summary>{summary}</summary>
                <DataTable header rows/>
            </details>
        </figure>
    }
}

/// A table of a cell's output or a chart's data, as the pre-rendered page has
/// it (`xtask/src/render.rs`, `table_html`).
#[component]
pub fn DataTable(header: Vec<String>, rows: Vec<Vec<String>>) -> impl IntoView {
    view! {
        <div class="table-wrap">
            <table class="cell-table">
                <thead><tr>{header.into_iter().map(|h| view! { <th>{h}</th> }).collect_view()}</tr></thead>
                <tbody>
                    {rows.into_iter().map(|r| view! {
                        <tr>{r.into_iter().map(|c| view! { <td>{c}</td> }).collect_view()}</tr>
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}
