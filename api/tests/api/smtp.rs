//! A real SMTP listener that keeps what it receives, for tests to read.

use std::{sync::Arc, time::Duration};

use tokio::{
    io::{AsyncBufReadExt, AsyncWriteExt, BufReader},
    net::TcpListener,
    sync::{Mutex, Notify},
};

#[derive(Debug, Clone)]
pub struct ReceivedMail {
    pub to: Vec<String>,
    /// The raw message, headers and body.
    pub data: String,
}

impl ReceivedMail {
    /// The message with quoted-printable soft breaks and escapes undone.
    pub fn text(&self) -> String {
        decode_quoted_printable(&self.data)
    }

    pub fn subject(&self) -> String {
        self.data
            .lines()
            .find_map(|l| l.strip_prefix("Subject: "))
            .unwrap_or_default()
            .to_owned()
    }
}

#[derive(Clone)]
pub struct SmtpCatcher {
    pub port: u16,
    mails: Arc<Mutex<Vec<ReceivedMail>>>,
    arrived: Arc<Notify>,
}

impl SmtpCatcher {
    pub async fn start() -> Self {
        Self::start_on(0).await
    }

    pub async fn start_on(port: u16) -> Self {
        let listener = TcpListener::bind(("127.0.0.1", port))
            .await
            .expect("bind SMTP listener");
        let port = listener.local_addr().unwrap().port();
        let catcher = Self {
            port,
            mails: Arc::default(),
            arrived: Arc::default(),
        };
        let accept = catcher.clone();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let catcher = accept.clone();
                tokio::spawn(async move { catcher.session(stream).await });
            }
        });
        catcher
    }

    async fn session(&self, stream: tokio::net::TcpStream) {
        let (read, mut write) = stream.into_split();
        let mut lines = BufReader::new(read);
        let mut to = Vec::new();
        if write.write_all(b"220 test-smtp ready\r\n").await.is_err() {
            return;
        }
        let mut line = String::new();
        loop {
            line.clear();
            if lines.read_line(&mut line).await.unwrap_or(0) == 0 {
                return;
            }
            let command = line.trim_end().to_ascii_uppercase();
            let reply: &[u8] = if command.starts_with("EHLO") {
                b"250-test-smtp\r\n250 8BITMIME\r\n"
            } else if command.starts_with("HELO")
                || command.starts_with("MAIL FROM")
                || command.starts_with("RSET")
                || command.starts_with("NOOP")
            {
                b"250 OK\r\n"
            } else if command.starts_with("RCPT TO") {
                to.push(
                    line.trim_end()[8..]
                        .trim()
                        .trim_start_matches('<')
                        .trim_end_matches('>')
                        .to_owned(),
                );
                b"250 OK\r\n"
            } else if command == "DATA" {
                if write.write_all(b"354 end with .\r\n").await.is_err() {
                    return;
                }
                let mut data = String::new();
                loop {
                    let mut l = String::new();
                    if lines.read_line(&mut l).await.unwrap_or(0) == 0 {
                        return;
                    }
                    if l == ".\r\n" || l == ".\n" {
                        break;
                    }
                    data.push_str(l.strip_prefix('.').filter(|_| l.starts_with("..")).unwrap_or(&l));
                }
                self.mails.lock().await.push(ReceivedMail {
                    to: std::mem::take(&mut to),
                    data,
                });
                self.arrived.notify_waiters();
                b"250 queued\r\n"
            } else if command == "QUIT" {
                let _ = write.write_all(b"221 bye\r\n").await;
                return;
            } else {
                b"502 not implemented\r\n"
            };
            if write.write_all(reply).await.is_err() {
                return;
            }
        }
    }

    pub async fn all(&self) -> Vec<ReceivedMail> {
        self.mails.lock().await.clone()
    }

    pub async fn to(&self, address: &str) -> Vec<ReceivedMail> {
        self.all()
            .await
            .into_iter()
            .filter(|m| m.to.iter().any(|t| t == address))
            .collect()
    }

    /// Waits until `count` mails to `address` have arrived (at most 15 s), and returns them.
    pub async fn wait_for(&self, address: &str, count: usize) -> Vec<ReceivedMail> {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
        loop {
            let notified = self.arrived.notified();
            let mails = self.to(address).await;
            if mails.len() >= count {
                return mails;
            }
            if tokio::time::timeout_at(deadline, notified).await.is_err() {
                panic!(
                    "expected {count} mail(s) to {address}, got {}",
                    self.to(address).await.len()
                );
            }
        }
    }
}

fn decode_quoted_printable(raw: &str) -> String {
    let joined = raw.replace("=\r\n", "").replace("=\n", "");
    let bytes = joined.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'='
            && i + 2 < bytes.len()
            && let Ok(byte) = u8::from_str_radix(&joined[i + 1..i + 3], 16)
        {
            out.push(byte);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

impl SmtpCatcher {
    /// A catcher not listening yet: `listen` starts it on its port later.
    pub fn detached(port: u16) -> Self {
        Self {
            port,
            mails: Arc::default(),
            arrived: Arc::default(),
        }
    }

    /// Starts listening on this catcher's port (the mail server coming back up).
    pub async fn listen(&self) {
        let listener = TcpListener::bind(("127.0.0.1", self.port))
            .await
            .expect("bind SMTP listener");
        let accept = self.clone();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let catcher = accept.clone();
                tokio::spawn(async move { catcher.session(stream).await });
            }
        });
    }
}
