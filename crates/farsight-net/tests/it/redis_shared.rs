//! The state several instances share through Redis (issue 15), against a
//! real `redis-server` of the test's own (skipped with a message where it is
//! not installed): the cache level, the GCRA budget, outages and passwords.
//! Each "instance" is its own `RedisLink` and `Cache`, as in two processes.

use std::time::{Duration, Instant};

use farsight_net::testing::RedisServer;
use farsight_net::{Cache, GcraVerdict, RedisLink, RedisStatus, TlsTrust};
use rcgen::{BasicConstraints, CertificateParams, IsCa, KeyPair};

const TTL: Duration = Duration::from_secs(600);

fn instance(url: &str) -> Cache {
    Cache::memory_only().with_redis(RedisLink::open(url).expect("a Redis URL"))
}

/// Raw access, to look at and tamper with what farsight stored.
async fn raw(server: &RedisServer) -> redis::aio::MultiplexedConnection {
    redis::Client::open(server.url())
        .unwrap()
        .get_multiplexed_async_connection()
        .await
        .unwrap()
}

/// Waits (up to 10 s) until the link answers again after an outage.
async fn until_up(link: &RedisLink) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !link.ping().await {
        assert!(
            Instant::now() < deadline,
            "redis never came back for the link"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn two_instances_share_entries_with_their_ttl() {
    let Some(server) = RedisServer::start("two_instances_share_entries_with_their_ttl") else {
        return;
    };
    let (a, b) = (instance(&server.url()), instance(&server.url()));
    assert_eq!(b.get("page", "https://example.com/").await, None);
    a.put("page", "https://example.com/", b"<p>hi</p>".to_vec(), TTL)
        .await;
    assert_eq!(
        b.get("page", "https://example.com/").await.as_deref(),
        Some(&b"<p>hi</p>"[..])
    );
    // Namespaces stay apart in Redis too.
    assert_eq!(b.get("document", "https://example.com/").await, None);

    let key = Cache::redis_key("page", "https://example.com/");
    assert!(key.starts_with("farsight:v1:page:"), "{key}");
    let mut conn = raw(&server).await;
    let pttl: i64 = redis::cmd("PTTL")
        .arg(&key)
        .query_async(&mut conn)
        .await
        .unwrap();
    assert!(pttl > 0 && pttl <= 600_000, "PTTL {pttl}");
    assert!(a.redis().unwrap().health().is_up());
}

#[tokio::test]
async fn foreign_corrupt_and_other_version_values_are_misses() {
    let Some(server) = RedisServer::start("foreign_corrupt_and_other_version_values_are_misses")
    else {
        return;
    };
    let reader = instance(&server.url());
    let mut conn = raw(&server).await;
    let set = |k: &str, v: Vec<u8>| {
        let mut cmd = redis::cmd("SET");
        cmd.arg(Cache::redis_key("page", k))
            .arg(v)
            .arg("PX")
            .arg(60_000);
        cmd
    };
    let _: () = set("garbage", b"not a farsight value".to_vec())
        .query_async(&mut conn)
        .await
        .unwrap();
    let _: () = set("short", b"FS".to_vec())
        .query_async(&mut conn)
        .await
        .unwrap();
    let _: () = set("v2", b"FSC\x00\x00\x02page".to_vec())
        .query_async(&mut conn)
        .await
        .unwrap();
    let _: () = set("v1", b"FSC\x00\x00\x01page".to_vec())
        .query_async(&mut conn)
        .await
        .unwrap();
    assert_eq!(reader.get("page", "garbage").await, None);
    assert_eq!(reader.get("page", "short").await, None);
    assert_eq!(reader.get("page", "v2").await, None);
    // The same bytes with this version's header are read: the misses above
    // are for the header, not for the way the test wrote them.
    assert_eq!(
        reader.get("page", "v1").await.as_deref(),
        Some(&b"page"[..])
    );
    // A foreign value never breaks the link.
    assert!(reader.redis().unwrap().health().is_up());
}

#[tokio::test]
async fn a_value_over_8_mib_is_not_written_to_redis() {
    let Some(server) = RedisServer::start("a_value_over_8_mib_is_not_written_to_redis") else {
        return;
    };
    let (a, b) = (instance(&server.url()), instance(&server.url()));
    a.put("page", "big", vec![b'x'; 8 * 1024 * 1024 + 1], TTL)
        .await;
    a.put("page", "fits", vec![b'x'; 1024 * 1024], TTL).await;
    assert!(a.get("page", "big").await.is_some(), "kept in memory");
    assert_eq!(b.get("page", "big").await, None);
    assert!(b.get("page", "fits").await.is_some());
}

#[tokio::test]
async fn redis_going_away_degrades_once_and_coming_back_resumes_sharing() {
    let Some(mut server) =
        RedisServer::start("redis_going_away_degrades_once_and_coming_back_resumes_sharing")
    else {
        return;
    };
    let (a, b) = (instance(&server.url()), instance(&server.url()));
    a.put("search", "before", b"1".to_vec(), TTL).await;
    assert!(b.get("search", "before").await.is_some());
    let health = b.redis().unwrap().health();
    assert!(health.is_up());

    server.stop();
    // Every call still answers: misses and writes go on locally.
    for i in 0..20 {
        let k = format!("during-{i}");
        assert_eq!(b.get("search", &k).await, None);
        b.put("search", &k, b"local".to_vec(), TTL).await;
        assert_eq!(b.get("search", &k).await.as_deref(), Some(&b"local"[..]));
    }
    assert_eq!(
        health.status(),
        RedisStatus::Degraded {
            reason: "redis: connection refused".into()
        }
    );
    assert_eq!(health.outages(), 1, "one outage, one warning");
    assert_eq!(a.get("search", "never-shared").await, None);

    server.start_again();
    until_up(a.redis().unwrap()).await;
    until_up(b.redis().unwrap()).await;
    a.put("search", "after", b"2".to_vec(), TTL).await;
    assert_eq!(b.get("search", "after").await.as_deref(), Some(&b"2"[..]));
    assert_eq!(health.status(), RedisStatus::Up);
    assert_eq!(health.outages(), 1);
}

#[tokio::test]
async fn two_limiters_on_one_redis_stay_within_the_budget() {
    let Some(server) = RedisServer::start("two_limiters_on_one_redis_stay_within_the_budget")
    else {
        return;
    };
    let links = [
        RedisLink::open(&server.url()).unwrap(),
        RedisLink::open(&server.url()).unwrap(),
    ];
    // 2 requests per second, burst 1.
    let period = Duration::from_millis(500);
    let started = Instant::now();
    let (mut admitted, mut refused) = (0u32, 0u32);
    let mut flushed = false;
    while started.elapsed() < Duration::from_secs(3) {
        for link in &links {
            match link.gcra("provider:mock", period, 1).await {
                Some(GcraVerdict::Allowed) => admitted += 1,
                Some(GcraVerdict::Wait(wait)) => {
                    assert!(wait <= period, "wait {wait:?}");
                    refused += 1;
                }
                None => panic!("redis is up: the budget must answer"),
            }
        }
        if !flushed && started.elapsed() > Duration::from_millis(1500) {
            // A flushed script cache (a restarted Redis) is reloaded.
            let mut conn = raw(&server).await;
            let _: () = redis::cmd("SCRIPT")
                .arg("FLUSH")
                .query_async(&mut conn)
                .await
                .unwrap();
            flushed = true;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let elapsed = started.elapsed().as_secs_f64();
    // burst + rate x time, with one slot of margin for the edges.
    let budget = 1 + (elapsed * 2.0).ceil() as u32 + 1;
    eprintln!("{admitted} admitted, {refused} told to wait, in {elapsed:.2} s (budget {budget})");
    assert!(
        admitted <= budget,
        "{admitted} admitted over {elapsed:.2} s"
    );
    assert!(
        admitted >= 4,
        "the budget admits: {admitted} over {elapsed:.2} s"
    );
    assert!(refused > admitted, "the clients asked far more: {refused}");
}

#[tokio::test]
async fn the_budget_answers_none_without_redis() {
    let Some(mut server) = RedisServer::start("the_budget_answers_none_without_redis") else {
        return;
    };
    let link = RedisLink::open(&server.url()).unwrap();
    assert!(
        link.gcra("provider:x", Duration::from_secs(1), 1)
            .await
            .is_some()
    );
    server.stop();
    assert_eq!(
        link.gcra("provider:x", Duration::from_secs(1), 1).await,
        None
    );
}

#[tokio::test]
async fn a_password_in_the_url_works_and_none_fails_clearly() {
    let Some(server) = RedisServer::start_with_password(
        "a_password_in_the_url_works_and_none_fails_clearly",
        "s3cret-pass",
    ) else {
        return;
    };
    let with = RedisLink::open(&server.url()).unwrap();
    assert!(with.ping().await);
    assert!(!format!("{with:?}").contains("s3cret"), "{with:?}");
    assert!(with.url().contains(":***@"), "{}", with.url());

    let without = RedisLink::open(&server.url_without_password()).unwrap();
    assert!(!without.ping().await);
    let RedisStatus::Degraded { reason } = without.health().status() else {
        panic!("up without the password");
    };
    assert!(reason.to_lowercase().contains("auth"), "{reason}");
    eprintln!("without the password: {reason}");

    let wrong = RedisLink::open(&server.url().replace("s3cret-pass", "wrong")).unwrap();
    assert!(!wrong.ping().await);
}

/// A fresh CA and a certificate it signed for 127.0.0.1: (CA, cert, key), PEM.
fn certificates() -> (String, String, String) {
    let ca_key = KeyPair::generate().unwrap();
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    let ca = ca_params.self_signed(&ca_key).unwrap();
    let leaf_key = KeyPair::generate().unwrap();
    let leaf_params = CertificateParams::new(vec!["127.0.0.1".to_owned()]).unwrap();
    let issuer = rcgen::Issuer::from_params(&ca_params, &ca_key);
    let leaf = leaf_params.signed_by(&leaf_key, &issuer).unwrap();
    (ca.pem(), leaf.pem(), leaf_key.serialize_pem())
}

#[tokio::test]
async fn rediss_trusts_the_ca_file_and_refuses_an_unknown_ca() {
    let (ca, cert, key) = certificates();
    let Some(server) = RedisServer::start_tls(
        "rediss_trusts_the_ca_file_and_refuses_an_unknown_ca",
        &ca,
        &cert,
        &key,
    ) else {
        return;
    };
    assert!(server.url().starts_with("rediss://"), "{}", server.url());
    let dir = tempfile::tempdir().unwrap();
    let ca_file = dir.path().join("ca.pem");
    std::fs::write(&ca_file, &ca).unwrap();
    let trust = TlsTrust::load(Some(&ca_file)).unwrap();

    let trusted = instance_trusting(&server.url(), &trust);
    trusted.put("page", "k", b"over TLS".to_vec(), TTL).await;
    let status = trusted.redis().unwrap().health().status();
    assert_eq!(status, RedisStatus::Up);
    let other = instance_trusting(&server.url(), &trust);
    assert_eq!(
        other.get("page", "k").await.as_deref(),
        Some(&b"over TLS"[..])
    );

    // The system store does not know this CA: refused, and said so.
    let untrusting = RedisLink::open(&server.url()).unwrap();
    assert!(!untrusting.ping().await);
    let RedisStatus::Degraded { reason } = untrusting.health().status() else {
        panic!("up with an unknown CA");
    };
    assert!(reason.starts_with("redis: "), "{reason}");
    eprintln!("rediss with an unknown CA: {reason}");
}

fn instance_trusting(url: &str, trust: &TlsTrust) -> Cache {
    Cache::memory_only().with_redis(RedisLink::open_trusting(url, trust).unwrap())
}

#[tokio::test]
async fn a_slow_redis_is_a_miss_within_the_timeout_not_a_hang() {
    let Some(server) = RedisServer::start("a_slow_redis_is_a_miss_within_the_timeout_not_a_hang")
    else {
        return;
    };
    let (a, b) = (instance(&server.url()), instance(&server.url()));
    a.put("page", "before", b"1".to_vec(), TTL).await;
    // Redis answers nobody for 2 s.
    let mut conn = raw(&server).await;
    let sleeper = tokio::spawn(async move {
        let _: redis::RedisResult<()> = redis::cmd("DEBUG")
            .arg("SLEEP")
            .arg(2)
            .query_async(&mut conn)
            .await;
    });
    tokio::time::sleep(Duration::from_millis(100)).await;
    // The call goes on without Redis: a miss, not an error or a hang (had
    // it waited for Redis, it would have read the value).
    assert_eq!(b.get("page", "before").await, None);
    let health = b.redis().unwrap().health();
    let RedisStatus::Degraded { reason } = health.status() else {
        panic!("up while Redis sleeps");
    };
    assert!(
        reason.contains("250 ms") || reason.contains("timed out"),
        "{reason}"
    );
    sleeper.await.unwrap();
    until_up(b.redis().unwrap()).await;
    assert_eq!(b.get("page", "before").await.as_deref(), Some(&b"1"[..]));
}
