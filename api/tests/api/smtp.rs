//! A real SMTP listener that keeps what it receives, for tests to read.

use std::{sync::Arc, time::Duration};

use tokio::{
    io::{AsyncBufReadExt, AsyncWriteExt, BufReader},
    net::{TcpListener, TcpSocket},
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
    /// A mail server that is down: its port bound but not listening, so a connection is refused
    /// and no other test's socket can take the port before [`SmtpCatcher::listen`].
    down: Arc<std::sync::Mutex<Option<TcpSocket>>>,
}

impl SmtpCatcher {
    pub async fn start() -> Self {
        let listener = TcpListener::bind(("127.0.0.1", 0))
            .await
            .expect("bind SMTP listener");
        let catcher = Self::detached(listener.local_addr().unwrap().port());
        catcher.accept(listener);
        catcher
    }

    /// A mail server that is down until [`SmtpCatcher::listen`].
    pub fn down() -> Self {
        let socket = TcpSocket::new_v4().expect("SMTP socket");
        socket.bind(([127, 0, 0, 1], 0).into()).expect("bind SMTP port");
        let catcher = Self::detached(socket.local_addr().unwrap().port());
        *catcher.down.lock().unwrap() = Some(socket);
        catcher
    }

    fn accept(&self, listener: TcpListener) {
        let catcher = self.clone();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let catcher = catcher.clone();
                tokio::spawn(async move { catcher.session(stream).await });
            }
        });
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
    /// A catcher of mail sent to a port it does not listen on (another instance's catcher's).
    pub fn detached(port: u16) -> Self {
        Self {
            port,
            mails: Arc::default(),
            arrived: Arc::default(),
            down: Arc::default(),
        }
    }

    /// The mail server of [`SmtpCatcher::down`] coming back up, on the same port.
    pub fn listen(&self) {
        let socket = self.down.lock().unwrap().take();
        let listener = socket
            .expect("a catcher made by SmtpCatcher::down")
            .listen(1024)
            .expect("listen for SMTP");
        self.accept(listener);
    }
}
