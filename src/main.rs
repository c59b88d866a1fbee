//! The `chess960` binary: no arguments speaks UCI, anything else is the CLI.
//! All logic lives in the library crate so that tests can reach it.

fn main() -> std::process::ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    chess960::cli::main()
}
