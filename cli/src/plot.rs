//! The SVG plot of `srgfn bench --plot` (plotters is a dependency of the
//! command line only, not of the library).

use anyhow::{Context as _, Result};
use srgfn::bench::{Record, Roofline};

/// Writes an SVG plot atomically: median time, and the measured floor
/// (`Record::floor_ms`: memory or product core) as % of that time, against
/// log2 N.  Points above 100% are drawn, not clipped: the axis extends and a
/// line at 100% marks where a floor's model over-counts.
pub fn plot(records: &[Record], roof: &Roofline, path: &std::path::Path, title: &str) -> Result<()> {
    let mut svg = String::new();
    draw_plot(records, roof, title, &mut svg).map_err(|e| anyhow::anyhow!("cannot draw the plot: {e}"))?;
    srgfn::io::write_atomic(path, svg.as_bytes()).context("cannot write the plot")
}

fn draw_plot(records: &[Record], roof: &Roofline, title: &str, svg: &mut String) -> Result<(), Box<dyn std::error::Error>> {
    use plotters::prelude::*;
    let root = SVGBackend::with_string(svg, (1200, 520)).into_drawing_area();
    root.fill(&WHITE)?;
    let (left, right) = root.split_horizontally(620);
    let min_log = records.iter().map(|r| r.log_n).min().unwrap_or(10);
    let max_log = records.iter().map(|r| r.log_n).max().unwrap_or(20).max(min_log + 1);
    let t_min = records.iter().map(|r| r.median_ms).fold(f64::MAX, f64::min).max(1e-4) / 1.5;
    let t_max = records.iter().map(|r| r.median_ms).fold(0.0, f64::max).max(1e-3) * 1.5;
    let pct = |r: &Record| 100.0 * r.floor_ms(roof) / r.median_ms;
    let pct_max = records.iter().map(&pct).fold(100.0, f64::max);
    let mut series: Vec<(String, Vec<&Record>)> = Vec::new();
    for r in records {
        let key = format!("{} {}", r.prime, r.variant);
        match series.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => v.push(r),
            None => series.push((key, vec![r])),
        }
    }
    let mut chart = ChartBuilder::on(&left)
        .caption(format!("{title}: median forward time"), ("sans-serif", 16))
        .margin(10)
        .x_label_area_size(35)
        .y_label_area_size(60)
        .build_cartesian_2d(min_log..max_log, (t_min..t_max).log_scale())?;
    chart.configure_mesh().x_desc("log2 N").y_desc("ms").draw()?;
    for (i, (name, pts)) in series.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        chart
            .draw_series(LineSeries::new(pts.iter().map(|r| (r.log_n, r.median_ms)), color.stroke_width(2)))?
            .label(name.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 15, y)], color));
    }
    chart.configure_series_labels().border_style(BLACK).label_font(("sans-serif", 11)).position(SeriesLabelPosition::UpperLeft).draw()?;
    let caption = if pct_max > 100.0 {
        "measured floor as % of time (above 100: a floor over-counts)"
    } else {
        "measured floor (memory or product core) as % of time"
    };
    let mut chart = ChartBuilder::on(&right)
        .caption(caption, ("sans-serif", 16))
        .margin(10)
        .x_label_area_size(35)
        .y_label_area_size(50)
        .build_cartesian_2d(min_log..max_log, 0.0..pct_max * 1.05)?;
    chart.configure_mesh().x_desc("log2 N").y_desc("%").draw()?;
    if pct_max > 100.0 {
        chart.draw_series(LineSeries::new([(min_log, 100.0), (max_log, 100.0)], BLACK.mix(0.6).stroke_width(1)))?;
    }
    for (i, (_, pts)) in series.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        chart.draw_series(LineSeries::new(pts.iter().map(|r| (r.log_n, pct(r))), color.stroke_width(2)))?;
    }
    root.present()?;
    Ok(())
}
