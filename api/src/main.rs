use std::process::ExitCode;

use clap::Parser;

#[tokio::main]
async fn main() -> ExitCode {
    let cli = api::cli::Cli::parse();
    match api::cli::run(cli).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            // The first line is the operator's message (e.g. a missing variable); causes follow.
            eprintln!("{err}");
            for cause in err.chain().skip(1) {
                eprintln!("  caused by: {cause}");
            }
            ExitCode::FAILURE
        }
    }
}
