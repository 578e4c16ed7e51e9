//! The HTML report's charts: SVG drawn by `plotters` (its SVG backend, no fonts rasterized),
//! each with a title, a description and a table of the numbers it shows, so every chart has a
//! text alternative.
//!
//! Charts only draw numbers the [`RunView`] (or the comparison's JSON) already computed: rates
//! and their Wilson intervals, counts, P/R/F1, determinism figures, citation metrics. The only
//! arithmetic here is layout and the bins of the latency and token histograms.

use std::fmt::Write as _;

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::escape;
use crate::fmt;

/// The series colours (Tableau 10's first eight): mid-tones legible on a light and a dark
/// background alike.
const PALETTE: [RGBColor; 8] = [
    RGBColor(78, 121, 167),
    RGBColor(242, 142, 43),
    RGBColor(225, 87, 89),
    RGBColor(118, 183, 178),
    RGBColor(89, 161, 79),
    RGBColor(237, 201, 72),
    RGBColor(176, 122, 161),
    RGBColor(156, 117, 95),
];

/// Text and axes: drawn black, then written as `currentColor` so they follow the page's
/// colour scheme.
const INK: RGBColor = RGBColor(0, 0, 0);
const GRID: RGBAColor = RGBAColor(128, 128, 128, 0.35);

/// Per row, per series: a value's interval, when it has one.
type Intervals = Vec<Vec<Option<(f64, f64)>>>;

/// One chart of the page.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Chart {
    /// The element id (`chart-<id>`) and the prefix of its title's and description's ids.
    pub id: String,
    pub title: String,
    /// One or two sentences saying what the chart shows.
    pub desc: String,
    /// The SVG element, with `role="img"`, `<title>` and `<desc>`.
    pub svg: String,
    /// The numbers drawn, as a table.
    pub table: DataTable,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct DataTable {
    pub head: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

impl DataTable {
    pub(crate) fn html(&self) -> String {
        let mut out = String::from("<div class=\"scroll\"><table class=\"data\"><thead><tr>");
        for h in &self.head {
            let _ = write!(out, "<th scope=\"col\">{}</th>", escape(h));
        }
        out.push_str("</tr></thead><tbody>");
        for r in &self.rows {
            out.push_str("<tr>");
            for (i, c) in r.iter().enumerate() {
                if i == 0 {
                    let _ = write!(out, "<th scope=\"row\">{}</th>", escape(c));
                } else {
                    let _ = write!(out, "<td>{}</td>", escape(c));
                }
            }
            out.push_str("</tr>");
        }
        out.push_str("</tbody></table></div>");
        out
    }
}

impl Chart {
    /// The chart as a `<figure>`: the SVG, its caption and its data table (folded).
    pub(crate) fn html(&self) -> String {
        format!(
            "<figure class=\"chart\" id=\"chart-{id}\">\n<figcaption><strong>{title}</strong> \
             <span class=\"desc\">{desc}</span></figcaption>\n{svg}\n<details class=\"alt\">\
             <summary>Data table</summary>{table}</details>\n</figure>\n",
            id = escape(&self.id),
            title = escape(&self.title),
            desc = escape(&self.desc),
            svg = self.svg,
            table = self.table.html(),
        )
    }
}

/// Horizontal bars: one row per label, one bar per series in each row, optionally with an
/// interval (whiskers) and a marker (a baseline or a target) per bar.
#[derive(Clone, Debug, Default)]
pub(crate) struct Bars {
    pub id: String,
    pub title: String,
    pub desc: String,
    pub rows: Vec<String>,
    pub series: Vec<String>,
    /// `[row][series]`.
    pub values: Vec<Vec<Option<f64>>>,
    /// `[row][series]`, when the values have intervals.
    pub intervals: Option<Intervals>,
    /// `[row][series]`: a reference value drawn as a tick across the bar.
    pub marks: Option<Vec<Vec<Option<f64>>>>,
    /// What a mark is (`baseline`, `target`).
    pub mark_name: String,
    pub axis: String,
    /// The axis' ends (0 and 1 for rates; a change runs from −1 to 1): bars start at 0.
    pub min: f64,
    pub max: f64,
    /// Values are shares, shown as percentages.
    pub percent: bool,
    /// Extra columns of the data table, `[row][series]` each.
    pub extra: Vec<(String, Vec<Vec<String>>)>,
}

impl Bars {
    pub(crate) fn chart(&self) -> Chart {
        let svg = self.draw().unwrap_or_else(|e| failed_svg(&e));
        Chart {
            id: self.id.clone(),
            title: self.title.clone(),
            desc: self.desc.clone(),
            svg: accessible(&svg, &self.id, &self.title, &self.desc),
            table: self.table(),
        }
    }

    fn show(&self, v: f64) -> String {
        if self.percent {
            fmt::pct(v)
        } else {
            fmt::num(v)
        }
    }

    fn table(&self) -> DataTable {
        let mut head = vec![String::new(), "series".into(), self.axis.clone()];
        if self.intervals.is_some() {
            head.push("95% interval".into());
        }
        if self.marks.is_some() {
            head.push(self.mark_name.clone());
        }
        head.extend(self.extra.iter().map(|(h, _)| h.clone()));
        let mut rows = Vec::new();
        for (r, label) in self.rows.iter().enumerate() {
            for (s, name) in self.series.iter().enumerate() {
                let mut row = vec![label.clone(), name.clone(), self.cell(r, s)];
                if let Some(iv) = &self.intervals {
                    row.push(match iv.get(r).and_then(|x| x.get(s)).copied().flatten() {
                        Some((lo, hi)) => format!("{}–{}", self.show(lo), self.show(hi)),
                        None => "—".into(),
                    });
                }
                if let Some(m) = &self.marks {
                    row.push(
                        m.get(r)
                            .and_then(|x| x.get(s))
                            .copied()
                            .flatten()
                            .map(|v| self.show(v))
                            .unwrap_or_else(|| "—".into()),
                    );
                }
                for (_, cols) in &self.extra {
                    row.push(
                        cols.get(r)
                            .and_then(|x| x.get(s))
                            .cloned()
                            .unwrap_or_default(),
                    );
                }
                rows.push(row);
            }
        }
        DataTable { head, rows }
    }

    fn cell(&self, r: usize, s: usize) -> String {
        match self.values.get(r).and_then(|x| x.get(s)).copied().flatten() {
            Some(v) => self.show(v),
            None => "—".into(),
        }
    }

    fn draw(&self) -> Result<String, String> {
        let n_rows = self.rows.len().max(1);
        let n_series = self.series.len().max(1);
        let bar_h = 16u32;
        let row_h = n_series as u32 * bar_h + 12;
        let legend = if self.series.len() > 1 {
            18 * self.series.len() as u32 + 8
        } else {
            0
        };
        let (width, height) = (760u32, 56 + n_rows as u32 * row_h + legend);
        let label_w = label_width(&self.rows);
        let mut out = String::new();
        {
            let root = SVGBackend::with_string(&mut out, (width, height)).into_drawing_area();
            let (plot, key) = root.split_vertically(height - legend);
            let mut chart = ChartBuilder::on(&plot)
                .margin(6)
                .margin_right(28)
                .x_label_area_size(40)
                .y_label_area_size(label_w)
                .build_cartesian_2d(
                    self.min.min(0.0)..self.max.max(self.min + f64::MIN_POSITIVE),
                    0f64..n_rows as f64,
                )
                .map_err(|e| e.to_string())?;
            let percent = self.percent;
            chart
                .configure_mesh()
                .disable_y_mesh()
                .x_labels(6)
                .x_label_formatter(&|x| {
                    if percent {
                        format!("{:.0}%", x * 100.0)
                    } else {
                        format!("{x:.2}")
                    }
                })
                .y_labels(0)
                .axis_style(INK)
                .label_style(("sans-serif", 13, &INK))
                .axis_desc_style(("sans-serif", 13, &INK))
                .bold_line_style(GRID)
                .light_line_style(TRANSPARENT)
                .x_desc(self.axis.as_str())
                .draw()
                .map_err(|e| e.to_string())?;
            // Row labels, row 0 at the top, right-aligned against the axis.
            let label_style = ("sans-serif", 13)
                .into_font()
                .color(&INK)
                .pos(Pos::new(HPos::Right, VPos::Center));
            for (r, label) in self.rows.iter().enumerate() {
                let (x, y) = chart.backend_coord(&(self.min.min(0.0), (n_rows - r) as f64 - 0.5));
                root.draw(&Text::new(
                    fmt::truncate(label, 28),
                    (x - 8, y),
                    &label_style,
                ))
                .map_err(|e| e.to_string())?;
            }
            let slot = 0.8 / n_series as f64;
            let top = |r: usize, s: usize| (n_rows - 1 - r) as f64 + 0.9 - s as f64 * slot;
            for (r, vals) in self.values.iter().enumerate() {
                for (s, v) in vals.iter().enumerate() {
                    let Some(v) = v else { continue };
                    let y1 = top(r, s);
                    let y0 = y1 - slot * 0.85;
                    let color = PALETTE[s % PALETTE.len()];
                    chart
                        .draw_series(std::iter::once(Rectangle::new(
                            [(0.0, y0), (v.clamp(self.min, self.max), y1)],
                            color.filled(),
                        )))
                        .map_err(|e| e.to_string())?;
                    let mid = (y0 + y1) / 2.0;
                    if let Some((lo, hi)) = self
                        .intervals
                        .as_ref()
                        .and_then(|iv| iv.get(r)?.get(s).copied().flatten())
                    {
                        let (lo, hi) = (lo.clamp(self.min, self.max), hi.clamp(self.min, self.max));
                        let h = slot * 0.25;
                        let style = INK.stroke_width(2);
                        chart
                            .draw_series([
                                PathElement::new(vec![(lo, mid), (hi, mid)], style),
                                PathElement::new(vec![(lo, mid - h), (lo, mid + h)], style),
                                PathElement::new(vec![(hi, mid - h), (hi, mid + h)], style),
                            ])
                            .map_err(|e| e.to_string())?;
                    }
                    if let Some(m) = self
                        .marks
                        .as_ref()
                        .and_then(|mk| mk.get(r)?.get(s).copied().flatten())
                    {
                        let m = m.clamp(self.min, self.max);
                        chart
                            .draw_series([PathElement::new(
                                vec![(m, y0 - slot * 0.1), (m, y1 + slot * 0.1)],
                                INK.stroke_width(3),
                            )])
                            .map_err(|e| e.to_string())?;
                    }
                }
            }
            if self.series.len() > 1 {
                legend_rows(&key, &self.series, label_w as i32 + 6)?;
            }
            root.present().map_err(|e| e.to_string())?;
        }
        Ok(out)
    }
}

/// A histogram per series over shared bins (latencies, token counts).
#[derive(Clone, Debug, Default)]
pub(crate) struct Histogram {
    pub id: String,
    pub title: String,
    pub desc: String,
    pub series: Vec<String>,
    /// `[series]`: the observations.
    pub values: Vec<Vec<f64>>,
    pub axis: String,
    pub unit: String,
    pub bins: usize,
}

impl Histogram {
    /// The bins' edges and each series' counts; `None` without observations.
    fn binned(&self) -> Option<(Vec<f64>, Vec<Vec<u64>>)> {
        let all = self
            .values
            .iter()
            .flatten()
            .copied()
            .filter(|v| v.is_finite());
        let (lo, hi) = all.fold(None, |acc: Option<(f64, f64)>, v| match acc {
            None => Some((v, v)),
            Some((a, b)) => Some((a.min(v), b.max(v))),
        })?;
        // Latencies and token counts start at zero.
        let lo = lo.min(0.0);
        // Bins at least one unit wide (a millisecond, a token): fewer of them for a narrow range.
        let bins = self.bins.max(1).min((hi - lo).ceil() as usize + 1);
        let width = ((hi - lo) / bins as f64).max(1.0);
        let edges: Vec<f64> = (0..=bins).map(|i| lo + i as f64 * width).collect();
        let counts = self
            .values
            .iter()
            .map(|vs| {
                let mut c = vec![0u64; bins];
                for v in vs.iter().filter(|v| v.is_finite()) {
                    let i = (((v - lo) / width) as usize).min(bins - 1);
                    c[i] += 1;
                }
                c
            })
            .collect();
        Some((edges, counts))
    }

    pub(crate) fn chart(&self) -> Chart {
        let binned = self.binned();
        let svg = match &binned {
            Some((edges, counts)) => self.draw(edges, counts).unwrap_or_else(|e| failed_svg(&e)),
            None => failed_svg("no observations"),
        };
        let mut table = DataTable {
            head: vec![format!("{} ({})", self.axis, self.unit)],
            rows: Vec::new(),
        };
        table.head.extend(self.series.iter().cloned());
        if let Some((edges, counts)) = &binned {
            for i in 0..edges.len() - 1 {
                let mut row = vec![format!("{:.0}–{:.0}", edges[i], edges[i + 1])];
                row.extend(counts.iter().map(|c| c[i].to_string()));
                table.rows.push(row);
            }
        }
        Chart {
            id: self.id.clone(),
            title: self.title.clone(),
            desc: self.desc.clone(),
            svg: accessible(&svg, &self.id, &self.title, &self.desc),
            table,
        }
    }

    fn draw(&self, edges: &[f64], counts: &[Vec<u64>]) -> Result<String, String> {
        let legend = if self.series.len() > 1 {
            18 * self.series.len() as u32 + 8
        } else {
            0
        };
        let (width, height) = (760u32, 260 + legend);
        let top = counts.iter().flatten().copied().max().unwrap_or(1).max(1) as f64 * 1.1;
        let (lo, hi) = (edges[0], edges[edges.len() - 1]);
        let mut out = String::new();
        {
            let root = SVGBackend::with_string(&mut out, (width, height)).into_drawing_area();
            let (plot, key) = root.split_vertically(height - legend);
            let mut chart = ChartBuilder::on(&plot)
                .margin(6)
                .margin_right(28)
                .x_label_area_size(40)
                .y_label_area_size(56)
                .build_cartesian_2d(lo..hi, 0f64..top)
                .map_err(|e| e.to_string())?;
            let unit = self.unit.clone();
            chart
                .configure_mesh()
                .disable_x_mesh()
                .x_labels(8)
                .y_labels((top as usize).clamp(1, 5) + 1)
                .x_label_formatter(&|x| format!("{x:.0}{unit}"))
                .y_label_formatter(&|y| format!("{y:.0}"))
                .axis_style(INK)
                .label_style(("sans-serif", 13, &INK))
                .axis_desc_style(("sans-serif", 13, &INK))
                .bold_line_style(GRID)
                .light_line_style(TRANSPARENT)
                .x_desc(self.axis.as_str())
                .y_desc("samples")
                .draw()
                .map_err(|e| e.to_string())?;
            let n = counts.len().max(1) as f64;
            for (s, c) in counts.iter().enumerate() {
                let color = PALETTE[s % PALETTE.len()];
                chart
                    .draw_series(c.iter().enumerate().filter(|(_, k)| **k > 0).map(|(i, k)| {
                        let w = (edges[i + 1] - edges[i]) / n;
                        let x0 = edges[i] + w * s as f64;
                        Rectangle::new([(x0, 0.0), (x0 + w * 0.9, *k as f64)], color.filled())
                    }))
                    .map_err(|e| e.to_string())?;
            }
            if self.series.len() > 1 {
                legend_rows(&key, &self.series, 62)?;
            }
            root.present().map_err(|e| e.to_string())?;
        }
        Ok(out)
    }
}

/// The series' names with their colours, one per line, in the area under a chart.
fn legend_rows<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    names: &[String],
    x: i32,
) -> Result<(), String> {
    for (i, name) in names.iter().enumerate() {
        let y = 4 + 18 * i as i32;
        area.draw(&Rectangle::new(
            [(x, y), (x + 12, y + 12)],
            PALETTE[i % PALETTE.len()].filled(),
        ))
        .map_err(|e| e.to_string())?;
        area.draw(&Text::new(
            fmt::truncate(name, 60),
            (x + 18, y),
            ("sans-serif", 13).into_font().color(&INK),
        ))
        .map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Pixels for the row labels: about 7.5 px a character, within bounds.
fn label_width(rows: &[String]) -> u32 {
    let longest = rows
        .iter()
        .map(|r| r.chars().count().min(28))
        .max()
        .unwrap_or(4);
    (longest as u32 * 15 / 2 + 16).clamp(60, 230)
}

/// A chart that could not be drawn says so (plotters' SVG backend writes to a string and does
/// not fail in practice; this keeps the page whole if it ever does).
fn failed_svg(why: &str) -> String {
    format!(
        "<svg viewBox=\"0 0 760 40\" xmlns=\"http://www.w3.org/2000/svg\"><text x=\"8\" y=\"24\" \
         fill=\"currentColor\">chart not drawn: {}</text></svg>",
        escape(why)
    )
}

/// plotters' SVG made accessible and theme-aware: `role="img"`, a `<title>` and a `<desc>`
/// referenced by `aria-labelledby`, a width that follows the page, and black ink as
/// `currentColor`.
pub(crate) fn accessible(svg: &str, id: &str, title: &str, desc: &str) -> String {
    let Some(open_end) = svg.find('>') else {
        return svg.to_owned();
    };
    let open = &svg[..open_end];
    let view_box = open
        .split("viewBox=\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .unwrap_or("0 0 760 300");
    let id = escape(id);
    let body = svg[open_end + 1..]
        .replace("#000000", "currentColor")
        .replace("font-family=\"sans-serif\"", "");
    format!(
        "<svg class=\"plot\" viewBox=\"{view_box}\" xmlns=\"http://www.w3.org/2000/svg\" \
         role=\"img\" aria-labelledby=\"{id}-title {id}-desc\" font-family=\"system-ui, \
         sans-serif\">\n<title id=\"{id}-title\">{}</title>\n<desc id=\"{id}-desc\">{}</desc>{body}",
        escape(title),
        escape(desc),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bars() -> Bars {
        Bars {
            id: "pass-rate".into(),
            title: "Pass rate".into(),
            desc: "Pass rate per variant".into(),
            rows: vec!["alone".into(), "grounded <docs>".into()],
            series: vec!["pass rate".into()],
            values: vec![vec![Some(0.25)], vec![Some(0.75)]],
            intervals: Some(vec![vec![Some((0.1, 0.5))], vec![Some((0.5, 0.9))]]),
            marks: None,
            mark_name: String::new(),
            axis: "pass rate".into(),
            min: 0.0,
            max: 1.0,
            percent: true,
            extra: Vec::new(),
        }
    }

    #[test]
    fn a_bar_chart_is_accessible_svg_with_its_numbers_as_a_table() {
        let c = bars().chart();
        assert!(c.svg.starts_with("<svg class=\"plot\""), "{}", &c.svg[..80]);
        assert!(c.svg.contains("role=\"img\""));
        assert!(
            c.svg
                .contains("<title id=\"pass-rate-title\">Pass rate</title>")
        );
        assert!(c.svg.contains("<desc id=\"pass-rate-desc\">"));
        assert!(!c.svg.contains("#000000"), "ink follows the colour scheme");
        assert!(c.svg.contains("currentColor"));
        // Two bars, in the first palette colour.
        assert_eq!(c.svg.matches("fill=\"#4E79A7\"").count(), 2, "{}", c.svg);
        // Labels are escaped.
        assert!(c.svg.contains("grounded &lt;docs&gt;"));
        assert_eq!(c.table.rows.len(), 2);
        assert_eq!(
            c.table.rows[1],
            ["grounded <docs>", "pass rate", "75.0%", "50.0%–90.0%"]
        );
        let html = c.html();
        assert!(html.contains("<th scope=\"row\">grounded &lt;docs&gt;</th>"));
    }

    #[test]
    fn histograms_bin_every_observation_once() {
        let h = Histogram {
            id: "latency".into(),
            title: "Latency".into(),
            desc: "d".into(),
            series: vec!["a".into(), "b".into()],
            values: vec![vec![0.0, 10.0, 20.0, 100.0], vec![50.0]],
            axis: "latency".into(),
            unit: " ms".into(),
            bins: 10,
        };
        let (edges, counts) = h.binned().unwrap();
        assert_eq!(edges.len(), 11);
        assert_eq!(counts[0].iter().sum::<u64>(), 4);
        assert_eq!(counts[1].iter().sum::<u64>(), 1);
        assert_eq!(counts[0][9], 1, "the maximum falls in the last bin");
        let c = h.chart();
        assert!(c.svg.contains("role=\"img\""));
        assert_eq!(c.table.rows.len(), 10);
        let narrow = Histogram {
            values: vec![vec![0.0, 2.0, 5.0]],
            ..h.clone()
        };
        let (n_edges, n_counts) = narrow.binned().unwrap();
        assert_eq!(n_edges.last(), Some(&6.0), "unit-wide bins: {n_edges:?}");
        assert_eq!(n_counts[0].iter().sum::<u64>(), 3);
        let empty = Histogram {
            values: vec![vec![]],
            ..h
        };
        assert!(empty.chart().svg.contains("no observations"));
    }
}
