//! `zdr-host [serve]` runs the embed service; `zdr-host render` draws a card
//! to an SVG or PNG file offline.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use tracing_subscriber::EnvFilter;
use zdr_chart::Chart;
use zdr_host::Config;

// glibc's malloc keeps a heap per thread that drew a chart and returns
// little of it: under load the process grew to about 1 GB for draws that
// each peak at 200 MB. mimalloc gives freed pages back to the system.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's delay before it gives freed pages back to the system.
const PURGE_DELAY: &str = "MIMALLOC_PURGE_DELAY";

#[derive(Parser)]
#[command(
    name = "zdr-host",
    version,
    about = "The zdr-embed reference embed service"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    config: Config,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the embed endpoint, the demo and the package (the default).
    Serve {
        // Boxed: the settings are most of the enum's size (clippy's
        // large_enum_variant), and are read once.
        #[command(flatten)]
        config: Box<Config>,
    },
    /// Draw a visualization_data file to an SVG or PNG file.
    Render {
        /// The visualization_data JSON file.
        #[arg(long)]
        input: PathBuf,
        /// Where to write the picture: SVG or PNG, by its extension.
        #[arg(long)]
        output: PathBuf,
        /// Width in CSS pixels (16 to 8192).
        #[arg(long, default_value_t = 800)]
        width: u32,
        /// Height in CSS pixels (16 to 8192).
        #[arg(long, default_value_t = 500)]
        height: u32,
        /// Device pixels per CSS pixel of a PNG (2 for a sharp picture on a
        /// dense screen); an SVG has no pixels and ignores it.
        #[arg(long, default_value_t = 1.0)]
        scale: f64,
        /// Force the dark (true) or light (false) theme.
        #[arg(long)]
        dark_mode: Option<bool>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Render {
            input,
            output,
            width,
            height,
            scale,
            dark_mode,
        }) => render(&input, &output, (width, height), scale, dark_mode),
        Some(Command::Serve { config }) => {
            purge_freed_memory_at_once();
            serve(*config)
        }
        None => {
            purge_freed_memory_at_once();
            serve(cli.config)
        }
    }
}

/// mimalloc keeps freed pages for a second (its purge delay) before it
/// gives them back; under a stream of large posts that alone took the peak
/// RSS of scripts/hostile-load.mjs from about 165 MB to 240-280 MB. Its
/// options are read from the environment as the process loads, before
/// `main`, and setting them later takes unsafe code, which this workspace
/// forbids; so the server starts itself once more with the delay at 0 (the
/// same process id and streams: `exec`). An operator's own setting wins.
fn purge_freed_memory_at_once() {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        if std::env::var_os(PURGE_DELAY).is_some() {
            return;
        }
        let Ok(program) = std::env::current_exe() else {
            return;
        };
        let error = std::process::Command::new(program)
            .args(std::env::args_os().skip(1))
            .env(PURGE_DELAY, "0")
            .exec();
        // Only reached when exec failed; the server runs all the same.
        eprintln!(
            "zdr-host: could not restart with {PURGE_DELAY}=0 ({error}); freed memory goes back to the system after mimalloc's default delay"
        );
    }
}

fn serve(config: Config) -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .with_target(false)
        // The log goes to stderr: stdout carries only the two lines of where
        // the host listens, so a script that reads the port need not keep
        // draining stdout.
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
    // The default hook prints the panic's message, which may quote a card's
    // data; the log gets a fixed line and the place instead.
    std::panic::set_hook(Box::new(|info| {
        let place = info
            .location()
            .map(|l| format!("{}:{}", l.file(), l.line()))
            .unwrap_or_default();
        tracing::error!("a task panicked at {place}; its request gets a 500 page");
    }));
    match zdr_host::api::check(&config.api) {
        Ok(0) => tracing::info!("the service API (/api/...) has no keys: start with --api-key, ZDR_API_KEYS or --api-keys-file to use it"),
        Ok(keys) => match zdr_host::api::store::Location::of(&config.api) {
            Ok(location) => tracing::info!(
                "the service API (/api/...) answers {keys} key(s); it keeps its data in {}",
                location.describe()
            ),
            Err(error) => {
                eprintln!("zdr-host: {error}");
                return ExitCode::FAILURE;
            }
        },
        Err(error) => {
            eprintln!("zdr-host: {error}");
            return ExitCode::FAILURE;
        }
    }
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("zdr-host: cannot start the runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(zdr_host::serve(config)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("zdr-host: {error}");
            ExitCode::FAILURE
        }
    }
}

/// The picture formats `render` writes.
#[derive(Clone, Copy)]
enum Format {
    Svg,
    Png,
}

impl Format {
    fn of(path: &std::path::Path) -> Option<Format> {
        let extension = path.extension()?.to_str()?.to_ascii_lowercase();
        match extension.as_str() {
            "svg" => Some(Format::Svg),
            "png" => Some(Format::Png),
            _ => None,
        }
    }
}

fn render(
    input: &PathBuf,
    output: &PathBuf,
    (width, height): (u32, u32),
    scale: f64,
    dark: Option<bool>,
) -> ExitCode {
    let Some(format) = Format::of(output) else {
        eprintln!(
            "zdr-host render: {} must end in .svg or .png",
            output.display()
        );
        return ExitCode::FAILURE;
    };
    let text = match std::fs::read_to_string(input) {
        Ok(text) => text,
        Err(error) => {
            eprintln!("zdr-host render: {}: {error}", input.display());
            return ExitCode::FAILURE;
        }
    };
    let chart = match Chart::from_json(&text) {
        Ok(chart) => chart,
        Err(error) => {
            eprintln!("zdr-host render: {}: {error}", input.display());
            return ExitCode::FAILURE;
        }
    };
    let theme = chart.theme(dark);
    let bytes = match picture(&chart, &theme, (width, height), scale, format) {
        Ok(bytes) => bytes,
        Err(error) => {
            eprintln!("zdr-host render: {error}");
            return ExitCode::FAILURE;
        }
    };
    if let Err(error) = std::fs::write(output, bytes) {
        eprintln!("zdr-host render: {}: {error}", output.display());
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// The card laid out once at `width` × `height` and written as `format`.
fn picture(
    chart: &Chart,
    theme: &zdr_chart::Theme,
    (width, height): (u32, u32),
    scale: f64,
    format: Format,
) -> Result<Vec<u8>, Box<dyn std::error::Error>> {
    let (width, height) = (width.clamp(16, 8192), height.clamp(16, 8192));
    let scene = chart.scene(f64::from(width), f64::from(height), theme, false);
    Ok(match format {
        Format::Svg => zdr_chart::paint::svg::write(&scene).into_bytes(),
        Format::Png => zdr_chart::paint::png::write(&scene, scale)?,
    })
}
