//! The application: built once, bound to a port (0 in tests), run until stopped.

use anyhow::Context;
use tokio::{net::TcpListener, sync::watch, task::JoinHandle};

use crate::{config::Config, db, graphql, http, janitor, mail::worker::Worker, state::AppState};

/// How long a stop waits for requests in flight, and then for the mail being sent.
const DRAIN_LIMIT: std::time::Duration = std::time::Duration::from_secs(30);

pub struct Application {
    listener: TcpListener,
    /// `METRICS_ADDR`: `/metrics` on its own address, away from the public one.
    metrics_listener: Option<TcpListener>,
    router: axum::Router,
    state: AppState,
    mail_worker: Option<Worker>,
}

impl Application {
    /// Connects, migrates and binds `config.bind_addr`.
    ///
    /// # Errors
    /// When the database is unreachable, a migration fails, the port is taken or the mail
    /// settings are malformed.
    pub async fn build(config: Config) -> anyhow::Result<Self> {
        let db = db::connect(config.database_url.expose()).await?;
        db::migrate(&db).await?;
        Self::build_with(config, db).await
    }

    /// Like [`Application::build`], on a connection the caller made and migrated.
    ///
    /// # Errors
    /// When the port is taken or the mail settings are malformed.
    pub async fn build_with(config: Config, db: sea_orm::DatabaseConnection) -> anyhow::Result<Self> {
        let bind_addr = config.bind_addr;
        let listener = TcpListener::bind(bind_addr)
            .await
            .with_context(|| format!("could not listen on {bind_addr}"))?;
        Self::build_on(config, db, listener).await
    }

    /// Like [`Application::build_with`], serving on a listener the caller bound: one that had
    /// to know its own address before its settings were made (its issuer URL, say) keeps the
    /// port it found instead of letting it go and binding it again.
    ///
    /// # Errors
    /// When the signing keys cannot be opened or the mail settings are malformed.
    pub async fn build_on(
        config: Config,
        db: sea_orm::DatabaseConnection,
        listener: TcpListener,
    ) -> anyhow::Result<Self> {
        let state = AppState::new(db, config);
        let resealed = crate::oidc::keys::reseal_all(&state.db, &state.vault)
            .await
            .map_err(crate::error::Error::into_anyhow)
            .context("the OpenID Provider's signing keys could not be opened")?;
        if resealed > 0 {
            tracing::info!(
                resealed,
                "signing keys sealed with the current KEY_ENCRYPTION_KEY"
            );
        }
        let mail_worker = match &state.config.smtp_url {
            Some(url) => Some(Worker::new(
                state.db.clone(),
                url.expose(),
                &state.config.mail_from,
                state.mail_ready.clone(),
            )?),
            None => None,
        };
        let schema = graphql::build(state.clone());
        let router = http::router(state.clone(), schema);
        let metrics_listener = match state.config.metrics_addr {
            Some(addr) => Some(
                TcpListener::bind(addr)
                    .await
                    .with_context(|| format!("could not listen on METRICS_ADDR {addr}"))?,
            ),
            None => None,
        };
        Ok(Self {
            listener,
            metrics_listener,
            router,
            state,
            mail_worker,
        })
    }

    pub fn port(&self) -> u16 {
        self.listener.local_addr().map_or(0, |a| a.port())
    }

    /// The port of the `METRICS_ADDR` listener, when there is one.
    pub fn metrics_port(&self) -> Option<u16> {
        self.metrics_listener
            .as_ref()
            .and_then(|l| l.local_addr().ok())
            .map(|a| a.port())
    }

    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Serves until `shutdown` resolves, then drains requests and stops the mail worker.
    ///
    /// # Errors
    /// When the server fails.
    pub async fn run_until(self, shutdown: impl Future<Output = ()> + Send + 'static) -> anyhow::Result<()> {
        let (stop_tx, stop_rx) = watch::channel(false);
        let worker: Option<JoinHandle<()>> = self.mail_worker.map(|w| tokio::spawn(w.run(stop_rx.clone())));
        let backchannel = crate::oidc::backchannel::Worker::new(&self.state)?;
        let backchannel = tokio::spawn(backchannel.run(stop_rx.clone()));
        let checkpoints = tokio::spawn(db::checkpoint::run(self.state.db.clone(), stop_rx.clone()));
        let janitor = tokio::spawn(janitor::run(
            self.state.db.clone(),
            self.state.config.session_idle,
            stop_rx,
        ));
        let addr = self.listener.local_addr()?;
        tracing::info!(%addr, env = self.state.config.env.as_str(), "listening");
        let metrics = self.metrics_listener.map(|listener| {
            let config = self.state.config.clone();
            // Stopped by `abort` below, with the main listener.
            tokio::spawn(async move {
                http::serve::serve(listener, http::metrics_router(), &config, std::future::pending()).await;
            })
        });
        let (stopping_tx, stopping_rx) = tokio::sync::oneshot::channel::<()>();
        let server = http::serve::serve(self.listener, self.router, &self.state.config, async move {
            shutdown.await;
            let _ = stopping_tx.send(());
        });
        // Requests in flight get to finish, but a stuck one cannot hold the exit forever.
        let drain_limit = async {
            if stopping_rx.await.is_ok() {
                tokio::time::sleep(DRAIN_LIMIT).await;
            } else {
                std::future::pending::<()>().await;
            }
        };
        tokio::select! {
            () = server => {}
            () = drain_limit => tracing::warn!("requests still open after {DRAIN_LIMIT:?}; stopping anyway"),
        }
        if let Some(metrics) = metrics {
            metrics.abort();
        }
        // The mail in hand is finished, then the worker and the janitor stop.
        let _ = stop_tx.send(true);
        let background = async {
            if let Some(worker) = worker {
                let _ = worker.await;
            }
            let _ = janitor.await;
            let _ = backchannel.await;
            let _ = checkpoints.await;
        };
        if tokio::time::timeout(DRAIN_LIMIT, background).await.is_err() {
            tracing::warn!("the mail worker did not stop within {DRAIN_LIMIT:?}");
        }
        Ok(())
    }

    /// Serves until Ctrl-C or SIGTERM.
    ///
    /// # Errors
    /// When the server fails.
    pub async fn run_until_stopped(self) -> anyhow::Result<()> {
        self.run_until(shutdown_signal()).await
    }
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = terminate => {}
    }
    tracing::info!("shutting down");
}
