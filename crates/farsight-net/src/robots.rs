//! robots.txt per RFC 9309, fetched once per origin and kept in memory, and
//! in the page cache (`robots_shared.rs`) so that other processes and other
//! instances sharing a Redis do not download it again.
//!
//! Status rules are the RFC's: 2xx → the rules apply; 4xx → everything is
//! allowed; 5xx or unreachable → everything is disallowed. Up to five
//! redirects are followed, each through the same guard as pages.

use std::sync::Arc;
use std::time::{Duration, Instant};

use url::Url;

use crate::bot_wall;
use crate::cache::Cache;
use crate::error::{Error, ErrorKind};
use crate::fetcher::send_error;
use crate::guard::Guard;
use crate::robots_shared::{self, Outcome};
use crate::route::Routes;

/// The product token farsight matches in `User-agent:` lines.
pub(crate) const PRODUCT_TOKEN: &str = "farsight";
/// RFC 9309 §2.5: crawlers must parse at least 500 KiB; we read no more.
const MAX_ROBOTS_BYTES: usize = 500 * 1024;
const MAX_ROBOTS_REDIRECTS: usize = 5;
/// RFC 9309 §2.4: caching for more than 24 hours is discouraged.
const RULES_TTL: Duration = Duration::from_secs(24 * 60 * 60);
/// An unreachable robots.txt disallows the site, but only for a short while,
/// so a passing outage does not lock a site out for a day.
const FAILURE_TTL: Duration = Duration::from_secs(10 * 60);
/// robots.txt is small; a server that takes longer than this is unreachable.
const ROBOTS_TIMEOUT: Duration = Duration::from_secs(10);

enum Rules {
    AllowAll,
    DisallowAll { why: String },
    Parsed(Box<texting_robots::Robot>),
}

#[derive(Clone)]
struct Cached {
    rules: Arc<Rules>,
    expires_at: Instant,
}

struct ByRulesExpiry;

impl moka::Expiry<String, Cached> for ByRulesExpiry {
    fn expire_after_create(
        &self,
        _k: &String,
        v: &Cached,
        created_at: Instant,
    ) -> Option<Duration> {
        Some(v.expires_at.saturating_duration_since(created_at))
    }
}

/// Per-origin robots.txt rules.
pub(crate) struct RobotsCache {
    rules: moka::future::Cache<String, Cached>,
    /// The page cache, where the decisions are shared.
    shared: Cache,
}

impl RobotsCache {
    pub(crate) fn new(shared: Cache) -> Self {
        Self {
            rules: moka::future::Cache::builder()
                .max_capacity(10_000)
                .expire_after(ByRulesExpiry)
                .build(),
            shared,
        }
    }

    /// `Ok(())` if robots.txt lets farsight fetch `url`.
    pub(crate) async fn check(
        &self,
        routes: &Routes,
        guard: &Guard,
        url: &Url,
        timeout: Duration,
    ) -> Result<(), Error> {
        let origin = url.origin().ascii_serialization();
        // `get_with` makes concurrent fetches of one origin share one download.
        // `try_get_with` makes concurrent fetches of one origin share one
        // download; an unreachable site is not cached (it is retried next time).
        let cached = self
            .rules
            .try_get_with(origin.clone(), async {
                let (outcome, ttl) = match robots_shared::get(&self.shared, &origin).await {
                    Some(kept) => kept,
                    None => {
                        let (outcome, ttl) =
                            load(routes, guard, &origin, timeout.min(ROBOTS_TIMEOUT)).await?;
                        robots_shared::put(&self.shared, &origin, outcome.clone(), ttl).await;
                        (outcome, ttl)
                    }
                };
                Ok::<_, Error>(Cached {
                    rules: Arc::new(parse(outcome)),
                    expires_at: Instant::now() + ttl,
                })
            })
            .await
            .map_err(|e: Arc<Error>| e.as_ref().clone().with_url(url.as_str()))?;
        let target = match url.query() {
            Some(q) => format!("{}?{q}", url.path()),
            None => url.path().to_owned(),
        };
        let disallowed = |why: String| {
            Err(Error::new(ErrorKind::RobotsDisallowed, why)
                .with_suggestion(
                    "The site asks automated agents not to fetch this page. Use the search \
                     result's snippet, or find the information on another site.",
                )
                .with_url(url.as_str()))
        };
        match cached.rules.as_ref() {
            Rules::AllowAll => Ok(()),
            Rules::DisallowAll { why } => disallowed(why.clone()),
            Rules::Parsed(robot) if robot.allowed(&target) => Ok(()),
            Rules::Parsed(_) => disallowed(format!(
                "{origin}/robots.txt does not allow farsight to fetch {}",
                url.path()
            )),
        }
    }
}

/// The rules a download said.
fn parse(outcome: Outcome) -> Rules {
    match outcome {
        Outcome::AllowAll => Rules::AllowAll,
        Outcome::DisallowAll { why } => Rules::DisallowAll { why },
        Outcome::Parsed { body } => {
            let body = body.unwrap_or_default();
            // The file is the site's to write, so a parser panic on it must not
            // take the process down; like an unparseable file, it means no rules.
            let parsed =
                std::panic::catch_unwind(|| texting_robots::Robot::new(PRODUCT_TOKEN, &body));
            match parsed {
                Ok(Ok(robot)) => Rules::Parsed(Box::new(robot)),
                Ok(Err(_)) | Err(_) => Rules::AllowAll,
            }
        }
    }
}

/// The outcome for one origin and how long to keep it. A site that cannot be
/// reached at all is an error (network or timeout), not a cached "disallow":
/// the page itself could not be fetched either.
async fn load(
    routes: &Routes,
    guard: &Guard,
    origin: &str,
    timeout: Duration,
) -> Result<(Outcome, Duration), Error> {
    let disallow = |why: String| {
        Ok((
            Outcome::DisallowAll {
                why: format!(
                    "{origin}/robots.txt could not be read ({why}); RFC 9309 treats the whole \
                     site as disallowed until it can be"
                ),
            },
            FAILURE_TTL,
        ))
    };
    let Ok(mut url) = Url::parse(&format!("{origin}/robots.txt")) else {
        return disallow("bad origin".into());
    };
    for _ in 0..=MAX_ROBOTS_REDIRECTS {
        if let Err(e) = guard.check_parsed(&url) {
            return disallow(format!("redirected to a refused URL: {}", e.message()));
        }
        // Through the user's proxy when the page goes through it; a name
        // that resolves here to a refused address is refused like the page.
        let route = routes.route(&url).await?;
        let resp = route
            .client
            .get(url.clone())
            .timeout(timeout)
            .send()
            .await
            .map_err(|e| send_error(&e, &url, route.proxy))?;
        let status = resp.status();
        if status.is_redirection() {
            let next = resp
                .headers()
                .get(reqwest::header::LOCATION)
                .and_then(|v| v.to_str().ok())
                .and_then(|loc| url.join(loc).ok());
            match next {
                Some(n) => {
                    url = n;
                    continue;
                }
                // A redirect without a target: nothing to read, like a 4xx.
                None => return Ok((Outcome::AllowAll, RULES_TTL)),
            }
        }
        if status.is_success() {
            let body = match read_capped(resp, MAX_ROBOTS_BYTES).await {
                Ok(b) => b,
                Err(_) => return disallow("the body could not be read".into()),
            };
            return Ok((Outcome::Parsed { body: Some(body) }, RULES_TTL));
        }
        if status.is_client_error() {
            return Ok((Outcome::AllowAll, RULES_TTL));
        }
        // A bot wall in front of the whole site (Cloudflare's "under attack"
        // mode answers robots.txt with its challenge and 503) is named as
        // such, not as a site that disallows everything; not cached.
        let code = status.as_u16();
        let mut resp = resp;
        let wall = match bot_wall::detect(code, resp.headers(), &[]) {
            Some(vendor) => Some(vendor),
            None => bot_wall::detect_in_error_body(&mut resp, code).await,
        };
        if let Some(vendor) = wall {
            return Err(bot_wall::wall_error(vendor, code, url.as_str()));
        }
        return disallow(format!("status {code}"));
    }
    disallow("too many redirects".into())
}

async fn read_capped(mut resp: reqwest::Response, cap: usize) -> Result<Vec<u8>, reqwest::Error> {
    let mut body = Vec::new();
    while let Some(chunk) = resp.chunk().await? {
        let room = cap - body.len();
        body.extend_from_slice(&chunk[..chunk.len().min(room)]);
        if body.len() >= cap {
            // Cut at the last full line so a half rule is not misread.
            if let Some(nl) = body.iter().rposition(|&b| b == b'\n') {
                body.truncate(nl + 1);
            }
            break;
        }
    }
    Ok(body)
}

#[cfg(test)]
mod tests {
    use texting_robots::Robot;

    use super::PRODUCT_TOKEN;

    #[test]
    fn product_token_group_wins_over_star() {
        let txt =
            b"User-agent: *\nDisallow: /\n\nUser-agent: farsight\nAllow: /\nDisallow: /private\n";
        let r = Robot::new(PRODUCT_TOKEN, txt).unwrap();
        assert!(r.allowed("/page"));
        assert!(!r.allowed("/private/x"));
        let other = Robot::new("otherbot", txt).unwrap();
        assert!(!other.allowed("/page"));
    }
}
