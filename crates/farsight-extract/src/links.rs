//! The links of the extracted content.

use dom_query::NodeRef;

use crate::Link;
use crate::render::collapse_ws;
use crate::url_util::Resolver;

/// Every `<a href>` under `roots`, absolute and deduplicated by URL, in order.
pub(crate) fn collect(roots: &[NodeRef<'_>], resolver: &Resolver) -> Vec<Link> {
    let mut out: Vec<Link> = Vec::new();
    let mut seen = std::collections::HashMap::new();
    for root in roots {
        let anchors = std::iter::once(*root).chain(root.descendants_it());
        for a in anchors {
            if a.node_name().as_deref() != Some("a") {
                continue;
            }
            let Some(url) = a.attr("href").and_then(|h| resolver.link(&h)) else {
                continue;
            };
            let text = collapse_ws(&a.text());
            match seen.get(&url) {
                Some(&i) => {
                    let link: &mut Link = &mut out[i];
                    if link.text.is_empty() {
                        link.text = text;
                    }
                }
                None => {
                    seen.insert(url.clone(), out.len());
                    out.push(Link { text, url });
                }
            }
        }
    }
    out
}
