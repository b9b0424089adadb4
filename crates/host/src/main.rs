//! `zdr-host [serve]` runs the embed service; `zdr-host render` draws a card
//! to an SVG file offline.

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
    /// Draw a visualization_data file to an SVG file.
    Render {
        /// The visualization_data JSON file.
        #[arg(long)]
        input: PathBuf,
        /// Where to write the SVG.
        #[arg(long)]
        output: PathBuf,
        #[arg(long, default_value_t = 800)]
        width: u32,
        #[arg(long, default_value_t = 500)]
        height: u32,
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
            dark_mode,
        }) => render(&input, &output, width, height, dark_mode),
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
        // The log goes to stderr: stdout carries only the listening line, so
        // a script that reads the port need not keep draining stdout.
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

fn render(
    input: &PathBuf,
    output: &PathBuf,
    width: u32,
    height: u32,
    dark: Option<bool>,
) -> ExitCode {
    let is_svg = output
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("svg"));
    if !is_svg {
        eprintln!(
            "zdr-host render: {} must end in .svg (PNG needs a rasteriser, which this build does not include)",
            output.display()
        );
        return ExitCode::FAILURE;
    }
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
    let svg = match chart.to_svg(width, height, &theme) {
        Ok(svg) => svg,
        Err(error) => {
            eprintln!("zdr-host render: {error}");
            return ExitCode::FAILURE;
        }
    };
    if let Err(error) = std::fs::write(output, svg) {
        eprintln!("zdr-host render: {}: {error}", output.display());
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
