use std::time::{Duration, Instant};

use farsight_net::{ErrorKind, FetchOptions};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpListener;

use crate::support::{builder, read_head};

/// A server that answers the head at once, then one body byte per second.
async fn one_byte_per_second() -> std::net::SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((mut sock, _)) = listener.accept().await {
            tokio::spawn(async move {
                let _ = read_head(&mut sock).await;
                let head =
                    "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100000\r\n\r\n";
                if sock.write_all(head.as_bytes()).await.is_err() {
                    return;
                }
                for _ in 0..120 {
                    if sock.write_all(b"a").await.is_err() {
                        return;
                    }
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
            });
        }
    });
    addr
}

/// A server that accepts and then says nothing.
async fn silent() -> std::net::SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((sock, _)) = listener.accept().await {
            held.push(sock);
        }
    });
    addr
}

#[tokio::test]
async fn a_slow_drip_body_times_out_within_the_limit() {
    let addr = one_byte_per_second().await;
    let fetcher = builder()
        .timeout(Duration::from_secs(2))
        .respect_robots_txt(false)
        .build()
        .unwrap();
    let started = Instant::now();
    let err = fetcher
        .fetch(
            &format!("http://127.0.0.1:{}/", addr.port()),
            &FetchOptions::default(),
        )
        .await
        .unwrap_err();
    let took = started.elapsed();
    assert_eq!(err.kind(), ErrorKind::Timeout, "{err}");
    assert!(err.is_timeout() && err.is_retryable());
    assert!(err.suggestion().is_some());
    assert!(
        took < Duration::from_secs(2) + Duration::from_secs(3),
        "took {took:?}"
    );
}

#[tokio::test]
async fn a_server_that_never_answers_times_out() {
    let addr = silent().await;
    let fetcher = builder()
        .timeout(Duration::from_secs(1))
        .respect_robots_txt(false)
        .build()
        .unwrap();
    let started = Instant::now();
    let err = fetcher
        .fetch(
            &format!("http://127.0.0.1:{}/", addr.port()),
            &FetchOptions::default(),
        )
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Timeout, "{err}");
    assert!(started.elapsed() < Duration::from_secs(4));
}

/// The total timeout also covers robots.txt: a silent server cannot stall a
/// fetch past the limit through its robots.txt.
#[tokio::test]
async fn the_total_timeout_covers_robots_txt() {
    let addr = silent().await;
    let fetcher = builder().timeout(Duration::from_secs(1)).build().unwrap();
    let started = Instant::now();
    let err = fetcher
        .fetch(
            &format!("http://127.0.0.1:{}/", addr.port()),
            &FetchOptions::default(),
        )
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Timeout, "{err}");
    assert!(started.elapsed() < Duration::from_secs(4));
}

/// A listener whose accept queue is full drops new connection attempts, so
/// connecting hangs: the connect timeout ends it, well before the total one.
#[tokio::test]
async fn the_connect_timeout_applies() {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let listener = socket.listen(0).unwrap();
    let addr = listener.local_addr().unwrap();
    // Fill the queue without ever accepting.
    let mut held = Vec::new();
    for _ in 0..8 {
        match tokio::time::timeout(
            Duration::from_millis(300),
            tokio::net::TcpStream::connect(addr),
        )
        .await
        {
            Ok(Ok(s)) => held.push(s),
            _ => break,
        }
    }
    let probe = tokio::time::timeout(
        Duration::from_millis(500),
        tokio::net::TcpStream::connect(addr),
    )
    .await;
    if probe.is_ok() {
        eprintln!("skipped: this network stack accepts connections past the backlog");
        return;
    }
    let fetcher = builder()
        .connect_timeout(Duration::from_secs(1))
        .timeout(Duration::from_secs(20))
        .respect_robots_txt(false)
        .build()
        .unwrap();
    let started = Instant::now();
    let err = fetcher
        .fetch(
            &format!("http://127.0.0.1:{}/", addr.port()),
            &FetchOptions::default(),
        )
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Timeout, "{err}");
    assert!(err.message().contains("connecting"), "{err}");
    assert!(started.elapsed() < Duration::from_secs(1) + Duration::from_secs(3));
    drop(listener);
}
