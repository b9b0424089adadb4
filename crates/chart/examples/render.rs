//! Renders visualization_data files to SVG, in the light and dark themes:
//! `cargo run -p zdr-chart --example render -- OUT_DIR WIDTH HEIGHT FILE...`

use std::path::Path;
use std::process::ExitCode;

use zdr_chart::Chart;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [out, width, height, files @ ..] = args.as_slice() else {
        eprintln!("usage: render OUT_DIR WIDTH HEIGHT FILE...");
        return ExitCode::FAILURE;
    };
    let (Ok(width), Ok(height)) = (width.parse::<u32>(), height.parse::<u32>()) else {
        eprintln!("WIDTH and HEIGHT are pixel counts");
        return ExitCode::FAILURE;
    };
    if let Err(error) = std::fs::create_dir_all(out) {
        eprintln!("{out}: {error}");
        return ExitCode::FAILURE;
    }
    let mut failed = false;
    for file in files {
        let stem = Path::new(file)
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("chart");
        let chart = match std::fs::read_to_string(file)
            .map_err(|e| e.to_string())
            .and_then(|text| Chart::from_json(&text).map_err(|e| e.to_string()))
        {
            Ok(chart) => chart,
            Err(error) => {
                eprintln!("{file}: {error}");
                failed = true;
                continue;
            }
        };
        for dark in [false, true] {
            let theme = chart.theme(Some(dark));
            let name = format!("{out}/{stem}-{}.svg", if dark { "dark" } else { "light" });
            match std::fs::write(&name, chart.to_svg(width, height, &theme)) {
                Ok(()) => println!("{name}"),
                Err(error) => {
                    eprintln!("{name}: {error}");
                    failed = true;
                }
            }
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
