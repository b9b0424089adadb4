//! A card's picture, to look at while working on a layout:
//! `cargo run -p zdr-chart --features png --example picture -- card.json out.png [width height [dark]]`
//! (out.svg for SVG).

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, output, rest @ ..] = args.as_slice() else {
        return Err("usage: picture card.json out.png [width height [dark]]".into());
    };
    let width: u32 = rest.first().map_or(Ok(800), |w| w.parse())?;
    let height: u32 = rest.get(1).map_or(Ok(450), |h| h.parse())?;
    let dark = rest.get(2).is_some_and(|d| d == "dark");
    let chart = zdr_chart::Chart::from_json(&std::fs::read_to_string(input)?)?;
    let theme = chart.theme(Some(dark));
    if output.ends_with(".svg") {
        std::fs::write(output, chart.to_svg(width, height, &theme))?;
    } else {
        let scene = chart.scene(f64::from(width), f64::from(height), &theme, false);
        std::fs::write(output, zdr_chart::paint::png::write(&scene, 1.0)?)?;
    }
    Ok(())
}
