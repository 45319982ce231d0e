use std::process::ExitCode;

use clap::Parser;

/// jemalloc instead of glibc's malloc: under load the server's many small, short-lived
/// allocations (headers, JSON, rows), freed on another thread than the one that made them,
/// contended on glibc's arena locks, and a session check spent more time in malloc and futex
/// waits than in its own work. It replaces `malloc` itself, so SQLite's allocations take it
/// too. Release builds only (feature `jemalloc`): its C build is minutes of a debug build that
/// nothing measures.
#[cfg(feature = "jemalloc")]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

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
