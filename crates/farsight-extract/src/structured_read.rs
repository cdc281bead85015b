//! Reads a page's JSON-LD blocks and OpenGraph properties into
//! [`StructuredData`]. Lenient as sites are: a field may be a string, a
//! number, an object or a list of them, and a person may be named in place
//! or by an `@id` another node of the page names. Bounded: a page cannot
//! make the answer larger than the caps below.

use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::fragment::{cap_chars, one_line};
use crate::jsonld::{
    self, Descend, ids_of, names_of, node_name, schema_name, str_of, type_is, type_of, url_of,
};
use crate::structured::{
    Article, BreadcrumbList, Crumb, Event, Faq, FaqPage, Offer, Organization, Person, Product,
    Rating, Recipe, StructuredData, StructuredItem, VideoObject,
};

/// Objects kept per page: a listing's JSON-LD can describe hundreds of
/// products, of which the first ones say what the page is.
const MAX_ITEMS: usize = 32;
/// Entries kept in each list (offers, ingredients, steps, questions,
/// crumbs, profiles).
const MAX_LIST: usize = 100;
/// Characters kept of a description, an answer or a step.
const MAX_TEXT: usize = 1_000;
/// OpenGraph properties kept.
const MAX_OPEN_GRAPH: usize = 64;
/// JSON-LD blocks read: a page has a handful.
const MAX_BLOCKS: usize = 32;

/// The JSON-LD blocks of a page, gathered while its metadata is read.
#[derive(Default)]
pub(crate) struct Collector {
    blocks: Vec<Value>,
}

impl Collector {
    /// Keeps a parsed block for [`Collector::finish`].
    pub(crate) fn add(&mut self, block: Value) {
        if self.blocks.len() < MAX_BLOCKS {
            self.blocks.push(block);
        }
    }

    /// The structured data of the blocks and of the page's `<meta>`
    /// properties (lower-case names, values in page order).
    pub(crate) fn finish(self, meta: &[(String, String)]) -> StructuredData {
        let mut ids = HashMap::new();
        for block in &self.blocks {
            jsonld::walk(block, &mut |o| {
                if let (Some(id), Some(name)) = (o.get("@id").and_then(Value::as_str), node_name(o))
                {
                    ids.entry(id.to_owned()).or_insert(name);
                }
                Descend::MainEntity
            });
        }
        let reader = Reader { ids: &ids };
        let mut items: Vec<StructuredItem> = Vec::new();
        for block in &self.blocks {
            jsonld::walk(block, &mut |o| {
                let (item, descend) = reader.item(o);
                if let Some(item) = item
                    && items.len() < MAX_ITEMS
                    && !items.contains(&item)
                {
                    items.push(item);
                }
                descend
            });
        }
        StructuredData {
            items,
            open_graph: open_graph(meta),
        }
    }
}

/// `og:*` and `product:*` properties, the first value of each.
fn open_graph(meta: &[(String, String)]) -> std::collections::BTreeMap<String, String> {
    let mut og = std::collections::BTreeMap::new();
    for (k, v) in meta {
        if og.len() >= MAX_OPEN_GRAPH {
            break;
        }
        if k.starts_with("og:") || k.starts_with("product:") {
            og.entry(k.clone())
                .or_insert_with(|| cap_chars(v, MAX_TEXT));
        }
    }
    og
}

struct Reader<'a> {
    /// Names of the page's nodes that have an `@id`.
    ids: &'a HashMap<String, String>,
}

type Node = Map<String, Value>;

impl Reader<'_> {
    /// The item a node is, if of a known type, and whether to read its
    /// `mainEntity` as well (a FAQ's are its questions, read here).
    fn item(&self, o: &Node) -> (Option<StructuredItem>, Descend) {
        if type_is(o, |t| matches!(t, "Product" | "ProductGroup")) {
            return (
                Some(StructuredItem::Product(self.product(o))),
                Descend::MainEntity,
            );
        }
        if let Some(t) = type_of(o, |t| {
            t.ends_with("Article") || matches!(t, "BlogPosting" | "LiveBlogPosting")
        }) {
            return (
                Some(StructuredItem::Article(self.article(o, t))),
                Descend::MainEntity,
            );
        }
        if type_is(o, |t| t == "Recipe") {
            return (
                Some(StructuredItem::Recipe(self.recipe(o))),
                Descend::MainEntity,
            );
        }
        if type_is(o, |t| t == "FAQPage") {
            return (Some(StructuredItem::FaqPage(self.faq(o))), Descend::Stop);
        }
        if type_is(o, |t| t == "BreadcrumbList") {
            return (
                Some(StructuredItem::BreadcrumbList(breadcrumbs(o))),
                Descend::Stop,
            );
        }
        if type_is(o, |t| t == "VideoObject") {
            return (
                Some(StructuredItem::VideoObject(video(o))),
                Descend::MainEntity,
            );
        }
        if type_is(o, |t| t == "Person") {
            return (
                Some(StructuredItem::Person(self.person(o))),
                Descend::MainEntity,
            );
        }
        if type_is(o, is_event) {
            return (
                Some(StructuredItem::Event(self.event(o))),
                Descend::MainEntity,
            );
        }
        if let Some(t) = type_of(o, is_organization) {
            return (
                Some(StructuredItem::Organization(organization(o, t))),
                Descend::MainEntity,
            );
        }
        (None, Descend::MainEntity)
    }

    /// People or organisations named in place or by `@id`.
    fn names(&self, v: Option<&Value>) -> Option<String> {
        let v = v?;
        names_of(v).or_else(|| {
            let names: Vec<&str> = ids_of(v)
                .iter()
                .filter_map(|id| self.ids.get(id).map(String::as_str))
                .collect();
            (!names.is_empty()).then(|| names.join(", "))
        })
    }

    fn product(&self, o: &Node) -> Product {
        Product {
            name: line(o.get("name")),
            brand: self.names(o.get("brand")),
            sku: line(o.get("sku")),
            gtin: line(
                o.get("gtin")
                    .or(o.get("gtin13"))
                    .or(o.get("gtin12"))
                    .or(o.get("gtin14"))
                    .or(o.get("gtin8")),
            ),
            mpn: line(o.get("mpn")),
            description: line(o.get("description")),
            image: o.get("image").and_then(url_of),
            url: o.get("url").and_then(url_of),
            offers: offers(o.get("offers")),
            rating: o.get("aggregateRating").and_then(rating),
        }
    }

    fn article(&self, o: &Node, t: &str) -> Article {
        Article {
            article_type: t.to_owned(),
            headline: line(o.get("headline").or(o.get("name"))),
            description: line(o.get("description")),
            author: self.names(o.get("author").or(o.get("creator"))),
            date_published: line(o.get("datePublished").or(o.get("dateCreated"))),
            date_modified: line(o.get("dateModified")),
            publisher: self.names(o.get("publisher")),
            section: line(o.get("articleSection")),
            image: o.get("image").and_then(url_of),
            url: o.get("url").and_then(url_of),
        }
    }

    fn recipe(&self, o: &Node) -> Recipe {
        let mut instructions = Vec::new();
        if let Some(v) = o.get("recipeInstructions") {
            steps(v, &mut instructions, 0);
        }
        Recipe {
            name: line(o.get("name")),
            description: line(o.get("description")),
            author: self.names(o.get("author")),
            prep_time: line(o.get("prepTime")),
            cook_time: line(o.get("cookTime")),
            total_time: line(o.get("totalTime")),
            recipe_yield: line(o.get("recipeYield")),
            calories: o
                .get("nutrition")
                .and_then(|n| n.get("calories"))
                .and_then(str_of),
            ingredients: texts(o.get("recipeIngredient").or(o.get("ingredients"))),
            instructions,
            rating: o.get("aggregateRating").and_then(rating),
            image: o.get("image").and_then(url_of),
            url: o.get("url").and_then(url_of),
        }
    }

    fn event(&self, o: &Node) -> Event {
        Event {
            name: line(o.get("name")),
            description: line(o.get("description")),
            start_date: line(o.get("startDate")),
            end_date: line(o.get("endDate")),
            event_status: o.get("eventStatus").and_then(enum_name),
            attendance_mode: o.get("eventAttendanceMode").and_then(enum_name),
            location: o.get("location").and_then(location),
            organizer: self.names(o.get("organizer")),
            performer: self.names(o.get("performer")),
            offers: offers(o.get("offers")),
            image: o.get("image").and_then(url_of),
            url: o.get("url").and_then(url_of),
        }
    }

    fn faq(&self, o: &Node) -> FaqPage {
        let questions = each(o.get("mainEntity"))
            .filter_map(|q| {
                let question = line(q.get("name").or(q.get("text")))?;
                let answer = q
                    .get("acceptedAnswer")
                    .or(q.get("suggestedAnswer"))
                    .and_then(|a| {
                        line(
                            a.get("text")
                                .or(a.as_array().and_then(|l| l.first()?.get("text"))),
                        )
                    });
                Some(Faq { question, answer })
            })
            .take(MAX_LIST)
            .collect();
        FaqPage {
            name: line(o.get("name")),
            questions,
        }
    }

    fn person(&self, o: &Node) -> Person {
        Person {
            name: node_name(o),
            job_title: line(o.get("jobTitle")),
            affiliation: self.names(o.get("affiliation").or(o.get("worksFor"))),
            description: line(o.get("description")),
            url: o.get("url").and_then(url_of),
            image: o.get("image").and_then(url_of),
            same_as: urls(o.get("sameAs")),
        }
    }
}

fn is_event(t: &str) -> bool {
    t == "Event" || (t.ends_with("Event") && !t.starts_with("Reservation"))
}

fn is_organization(t: &str) -> bool {
    t.ends_with("Organization")
        || matches!(
            t,
            "Corporation" | "LocalBusiness" | "OnlineStore" | "Store" | "Restaurant" | "NGO"
        )
}

fn organization(o: &Node, t: &str) -> Organization {
    Organization {
        organization_type: (t != "Organization").then(|| t.to_owned()),
        name: line(o.get("name").or(o.get("legalName"))),
        description: line(o.get("description")),
        url: o.get("url").and_then(url_of),
        logo: o.get("logo").and_then(url_of),
        telephone: line(o.get("telephone")),
        email: line(o.get("email")),
        address: o.get("address").and_then(address),
        same_as: urls(o.get("sameAs")),
    }
}

fn video(o: &Node) -> VideoObject {
    VideoObject {
        name: line(o.get("name")),
        description: line(o.get("description")),
        upload_date: line(o.get("uploadDate")),
        duration: line(o.get("duration")),
        content_url: o.get("contentUrl").and_then(url_of),
        embed_url: o.get("embedUrl").and_then(url_of),
        thumbnail_url: o.get("thumbnailUrl").and_then(url_of),
    }
}

fn breadcrumbs(o: &Node) -> BreadcrumbList {
    let mut crumbs: Vec<(f64, usize, Crumb)> = each(o.get("itemListElement"))
        .enumerate()
        .take(MAX_LIST)
        .filter_map(|(i, e)| {
            let item = e.get("item");
            let name =
                line(e.get("name")).or_else(|| item.and_then(|i| i.get("name")).and_then(str_of));
            let url = item
                .and_then(url_of)
                .or_else(|| e.get("url").and_then(url_of));
            if name.is_none() && url.is_none() {
                return None;
            }
            let position = e
                .get("position")
                .and_then(str_of)
                .and_then(|p| p.parse::<f64>().ok())
                .unwrap_or(f64::MAX);
            Some((position, i, Crumb { name, url }))
        })
        .collect();
    // Written in any order; `position` says where each goes.
    crumbs.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    BreadcrumbList {
        items: crumbs.into_iter().map(|(_, _, c)| c).collect(),
    }
}

/// The offers of `offers`: one `Offer`, an `AggregateOffer` (with its own
/// offers listed after it, when it lists them), or a list of either.
fn offers(v: Option<&Value>) -> Vec<Offer> {
    let mut out = Vec::new();
    for o in each(v) {
        if out.len() >= MAX_LIST {
            break;
        }
        out.push(offer(o));
        if type_is(o, |t| t == "AggregateOffer")
            && let Some(inner) = o.get("offers")
        {
            for inner in each(Some(inner)) {
                if out.len() >= MAX_LIST {
                    break;
                }
                // Not aggregates again: one level is what sites write.
                out.push(offer(inner));
            }
        }
    }
    out.retain(|o| *o != Offer::default());
    out
}

fn offer(o: &Node) -> Offer {
    // A price may sit in a price specification instead of on the offer.
    let spec = o
        .get("priceSpecification")
        .and_then(|s| each(Some(s)).next());
    let from_spec = |k: &str| spec.and_then(|s| s.get(k)).and_then(str_of);
    Offer {
        price: line(o.get("price")).or_else(|| from_spec("price")),
        low_price: line(o.get("lowPrice")),
        high_price: line(o.get("highPrice")),
        price_currency: line(o.get("priceCurrency")).or_else(|| from_spec("priceCurrency")),
        availability: o.get("availability").and_then(enum_name),
        item_condition: o.get("itemCondition").and_then(enum_name),
        offer_count: line(o.get("offerCount")),
        price_valid_until: line(o.get("priceValidUntil")),
        seller: o.get("seller").and_then(names_of),
        url: o.get("url").and_then(url_of),
    }
}

fn rating(v: &Value) -> Option<Rating> {
    let o = v.as_object()?;
    let r = Rating {
        rating_value: line(o.get("ratingValue")),
        best_rating: line(o.get("bestRating")),
        rating_count: line(o.get("ratingCount")),
        review_count: line(o.get("reviewCount")),
    };
    (r != Rating::default()).then_some(r)
}

/// An event's location: a place's name and address, an address, or an
/// online location's URL.
fn location(v: &Value) -> Option<String> {
    match v {
        Value::Array(a) => a.iter().find_map(location),
        Value::Object(o) => {
            let name = line(o.get("name"));
            let addr = o.get("address").and_then(address);
            match (name, addr) {
                (Some(n), Some(a)) if !a.contains(&n) => Some(format!("{n}, {a}")),
                (Some(n), Some(_)) => Some(n),
                (n, a) => n.or(a).or_else(|| o.get("url").and_then(url_of)),
            }
            .or_else(|| address(v))
        }
        other => line(Some(other)),
    }
}

/// A postal address as one line, or the text an address was written as.
fn address(v: &Value) -> Option<String> {
    match v {
        Value::Object(o) => {
            let parts: Vec<String> = [
                "streetAddress",
                "addressLocality",
                "addressRegion",
                "postalCode",
                "addressCountry",
            ]
            .iter()
            .filter_map(|k| o.get(*k).and_then(str_of))
            .collect();
            (!parts.is_empty()).then(|| parts.join(", "))
        }
        Value::Array(a) => a.iter().find_map(address),
        other => line(Some(other)),
    }
}

/// Recipe steps: text (one step a line), `HowToStep`s, `HowToSection`s of
/// steps, or lists of them.
fn steps(v: &Value, out: &mut Vec<String>, depth: usize) {
    if out.len() >= MAX_LIST || depth > 4 {
        return;
    }
    match v {
        Value::String(s) => {
            let text = one_line_breaks(s);
            out.extend(text.into_iter().take(MAX_LIST - out.len()));
        }
        Value::Array(a) => a.iter().for_each(|x| steps(x, out, depth + 1)),
        Value::Object(o) => {
            if let Some(list) = o.get("itemListElement") {
                steps(list, out, depth + 1);
            } else if let Some(t) = line(o.get("text").or(o.get("name"))) {
                out.push(t);
            }
        }
        _ => {}
    }
}

/// Lines of a text (HTML or not), each as one line, empty ones left out.
fn one_line_breaks(s: &str) -> Vec<String> {
    s.lines()
        .map(|l| cap_chars(&one_line(l), MAX_TEXT))
        .filter(|l| !l.is_empty())
        .collect()
}

/// The objects of a value that is one object or a list of them.
fn each(v: Option<&Value>) -> impl Iterator<Item = &Node> {
    let list: &[Value] = match v {
        Some(Value::Array(a)) => a,
        Some(v) => std::slice::from_ref(v),
        None => &[],
    };
    list.iter().filter_map(Value::as_object)
}

/// A value as one line of text (HTML read as text), capped.
fn line(v: Option<&Value>) -> Option<String> {
    let s = str_of(v?)?;
    let s = one_line(&s);
    (!s.is_empty()).then(|| cap_chars(&s, MAX_TEXT))
}

/// The texts of a list (or of one value).
fn texts(v: Option<&Value>) -> Vec<String> {
    match v {
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(|x| line(Some(x)))
            .take(MAX_LIST)
            .collect(),
        Some(v) => line(Some(v)).into_iter().collect(),
        None => Vec::new(),
    }
}

/// URLs of a list (or of one value), as written.
fn urls(v: Option<&Value>) -> Vec<String> {
    match v {
        Some(Value::Array(a)) => a.iter().filter_map(url_of).take(MAX_LIST).collect(),
        Some(v) => url_of(v).into_iter().collect(),
        None => Vec::new(),
    }
}

/// A schema.org enumeration member without its prefix (`InStock`).
fn enum_name(v: &Value) -> Option<String> {
    url_of(v).map(|s| schema_name(&s).to_owned())
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use crate::{ExtractOptions, Format, StructuredData, extract};

    fn data(blocks: &[Value], meta: &str) -> StructuredData {
        let scripts: String = blocks
            .iter()
            .map(|b| format!("<script type=\"application/ld+json\">{b}</script>"))
            .collect();
        let html =
            format!("<html><head>{meta}{scripts}</head><body><p>Some page text.</p></body></html>");
        let options = ExtractOptions::new(Format::Markdown).include_structured_data(true);
        extract(&html, &options).structured_data.expect("asked for")
    }

    fn items(blocks: &[Value]) -> Value {
        serde_json::to_value(data(blocks, "").items).unwrap()
    }

    #[test]
    fn not_asked_for_is_not_read() {
        let doc = extract(
            "<script type=\"application/ld+json\">{\"@type\":\"Product\",\"name\":\"X\"}</script>",
            &ExtractOptions::new(Format::Markdown),
        );
        assert_eq!(doc.structured_data, None);
    }

    #[test]
    fn offers_in_every_shape() {
        let got = items(&[
            json!({"@context": "https://schema.org", "@type": "Product", "name": "Kettle",
            "gtin13": 4006381333931u64,
            "offers": [
                {"@type": "Offer", "priceSpecification": {"@type": "UnitPriceSpecification", "price": "20.00", "priceCurrency": "GBP"},
                 "availability": "http://schema.org/PreOrder", "seller": {"@type": "Organization", "name": "Shop"}},
                {"@type": "AggregateOffer", "lowPrice": 18, "highPrice": 25.5, "priceCurrency": "GBP",
                 "offers": [{"@type": "Offer", "price": 18, "priceCurrency": "GBP"}]}
            ],
            "aggregateRating": {"@type": "AggregateRating", "ratingValue": "4.4", "reviewCount": 89}}),
        ]);
        assert_eq!(
            got,
            json!([{"type": "Product", "name": "Kettle", "gtin": "4006381333931",
                "offers": [
                    {"price": "20.00", "priceCurrency": "GBP", "availability": "PreOrder", "seller": "Shop"},
                    {"lowPrice": "18", "highPrice": "25.5", "priceCurrency": "GBP"},
                    {"price": "18", "priceCurrency": "GBP"}
                ],
                "rating": {"ratingValue": "4.4", "reviewCount": "89"}}])
        );
    }

    #[test]
    fn articles_name_authors_given_by_reference() {
        let got = items(&[json!({"@graph": [
            {"@type": ["NewsArticle"], "headline": "Tides rise", "datePublished": "2024-03-01T08:00:00Z",
             "author": {"@id": "#jane"}, "publisher": {"@id": "#org"}},
            {"@type": "Person", "@id": "#jane", "name": "Jane Doe", "jobTitle": "Reporter",
             "sameAs": ["https://x.example/jane", "https://y.example/jane"]},
            {"@type": "NewsMediaOrganization", "@id": "#org", "name": "Coast Times"}
        ]})]);
        assert_eq!(
            got,
            json!([
                {"type": "Article", "articleType": "NewsArticle", "headline": "Tides rise",
                 "author": "Jane Doe", "datePublished": "2024-03-01T08:00:00Z", "publisher": "Coast Times"},
                {"type": "Person", "name": "Jane Doe", "jobTitle": "Reporter",
                 "sameAs": ["https://x.example/jane", "https://y.example/jane"]},
                {"type": "Organization", "organizationType": "NewsMediaOrganization", "name": "Coast Times"}
            ])
        );
    }

    #[test]
    fn recipes_events_faqs_and_videos() {
        let got = items(&[
            json!({"@type": "Recipe", "name": "Chowder", "author": "Ann", "totalTime": "PT1H",
                "recipeYield": ["4", "4 bowls"], "recipeIngredient": ["1 kg clams", "2 potatoes"],
                "recipeInstructions": [
                    {"@type": "HowToSection", "name": "Prep", "itemListElement": [
                        {"@type": "HowToStep", "text": "Scrub the clams."}]},
                    {"@type": "HowToStep", "text": "<p>Simmer <b>gently</b>.</p>"}],
                "nutrition": {"calories": "320 kcal"}}),
            json!({"@type": "MusicEvent", "name": "Harbour Jazz", "startDate": "2025-07-01T19:00",
                "eventStatus": "https://schema.org/EventScheduled",
                "location": {"@type": "Place", "name": "Pier 4",
                    "address": {"@type": "PostalAddress", "streetAddress": "4 Quay St", "addressLocality": "Portsmouth"}},
                "offers": {"@type": "Offer", "price": "15", "priceCurrency": "GBP"}}),
            json!({"@type": "FAQPage", "mainEntity": [
                {"@type": "Question", "name": "Is it open?",
                 "acceptedAnswer": {"@type": "Answer", "text": "<p>Yes, <a href='/hours'>daily</a>.</p><img src=x onerror=alert(1)>"}}]}),
            json!({"@type": "VideoObject", "name": "Tour", "uploadDate": "2024-01-01",
                "duration": "PT2M", "thumbnailUrl": ["https://v.example/t.jpg"]}),
        ]);
        assert_eq!(
            got,
            json!([
                {"type": "Recipe", "name": "Chowder", "author": "Ann", "totalTime": "PT1H",
                 "recipeYield": "4", "calories": "320 kcal",
                 "ingredients": ["1 kg clams", "2 potatoes"],
                 "instructions": ["Scrub the clams.", "Simmer gently."]},
                {"type": "Event", "name": "Harbour Jazz", "startDate": "2025-07-01T19:00",
                 "eventStatus": "EventScheduled", "location": "Pier 4, 4 Quay St, Portsmouth",
                 "offers": [{"price": "15", "priceCurrency": "GBP"}]},
                {"type": "FAQPage", "questions": [{"question": "Is it open?", "answer": "Yes, daily."}]},
                {"type": "VideoObject", "name": "Tour", "uploadDate": "2024-01-01", "duration": "PT2M",
                 "thumbnailUrl": "https://v.example/t.jpg"}
            ])
        );
    }

    #[test]
    fn open_graph_first_values_and_products() {
        let d = data(
            &[],
            "<meta property=\"og:image\" content=\"https://e.x/1.jpg\">\
             <meta property=\"og:image\" content=\"https://e.x/2.jpg\">\
             <meta property=\"product:price:amount\" content=\"9.99\">\
             <meta name=\"description\" content=\"not OpenGraph\">",
        );
        assert_eq!(
            serde_json::to_value(&d.open_graph).unwrap(),
            json!({"og:image": "https://e.x/1.jpg", "product:price:amount": "9.99"})
        );
    }

    #[test]
    fn hostile_pages_are_bounded() {
        let many: Vec<Value> = (0..1000)
            .map(|i| json!({"@type": "Product", "name": format!("P{i}"), "description": "word ".repeat(1_000)}))
            .collect();
        let d = data(&[Value::Array(many)], "");
        assert_eq!(d.items.len(), super::MAX_ITEMS);
        let text = serde_json::to_string(&d).unwrap();
        assert!(
            text.len() < super::MAX_ITEMS * (super::MAX_TEXT * 4 + 100),
            "{}",
            text.len()
        );
        // Nested deeper than the walk goes, or than serde_json parses:
        // nothing read, no overflow.
        let options = ExtractOptions::new(Format::Markdown).include_structured_data(true);
        for depth in [50, 100_000] {
            let deep = format!(
                "{}{{\"@type\":\"Product\",\"name\":\"Deep\"}}{}",
                "{\"@graph\":[".repeat(depth),
                "]}".repeat(depth)
            );
            let html = format!("<script type=\"application/ld+json\">{deep}</script>");
            assert!(
                extract(&html, &options)
                    .structured_data
                    .unwrap()
                    .items
                    .is_empty()
            );
        }
    }
}
