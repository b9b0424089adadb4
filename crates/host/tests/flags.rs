//! "Adding a host flag" (docs/architecture.md) kept true: every flag of
//! `zdr-host` and its environment variable are documented for operators.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use clap::{CommandFactory, Parser};
use zdr_host::Config;

#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    config: Config,
}

#[test]
fn every_flag_and_its_variable_is_in_the_operators_docs() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/");
    let docs: String = ["host.md", "deploy.md"]
        .iter()
        .map(|name| std::fs::read_to_string(format!("{root}{name}")).unwrap())
        .collect();
    let command = Cli::command();
    let mut missing = Vec::new();
    let mut flags = 0;
    for arg in command.get_arguments() {
        let Some(long) = arg.get_long() else { continue };
        if long == "help" || long == "version" {
            continue;
        }
        flags += 1;
        if !docs.contains(&format!("`--{long}`")) {
            missing.push(format!("--{long}"));
        }
        match arg.get_env() {
            Some(env) if !docs.contains(&env.to_string_lossy().to_string()) => {
                missing.push(env.to_string_lossy().to_string())
            }
            Some(_) => {}
            None => missing.push(format!("--{long} has no environment variable")),
        }
    }
    assert!(
        flags >= 29,
        "only {flags} flags: the settings did not flatten"
    );
    assert!(
        missing.is_empty(),
        "not in docs/host.md or docs/deploy.md: {missing:?}"
    );
}
