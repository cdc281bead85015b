//! A page's structured data as data: its JSON-LD objects of the common
//! schema.org types, flattened to the fields an agent asks about (what it
//! costs, when it starts, who wrote it), and its OpenGraph properties.
//! Read by `structured_read.rs`; asked for with
//! [`crate::ExtractOptions::include_structured_data`].

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The structured data of a page (see [`crate::Document::structured_data`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StructuredData {
    /// JSON-LD objects of the known types, in page order, duplicates left out.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<StructuredItem>,
    /// OpenGraph (`og:*`) and product (`product:price:amount`...) properties:
    /// the first value of each.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub open_graph: BTreeMap<String, String>,
}

impl StructuredData {
    /// Nothing was found.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty() && self.open_graph.is_empty()
    }
}

/// One JSON-LD object, by its schema.org type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type")]
#[non_exhaustive]
pub enum StructuredItem {
    /// `Product` (and `ProductGroup`).
    Product(Product),
    /// `Article`, `NewsArticle`, `BlogPosting` and the other `*Article`s.
    Article(Article),
    /// `Recipe`.
    Recipe(Recipe),
    /// `Event` and its kinds (`MusicEvent`...).
    Event(Event),
    /// `FAQPage`.
    #[serde(rename = "FAQPage")]
    FaqPage(FaqPage),
    /// `BreadcrumbList`.
    BreadcrumbList(BreadcrumbList),
    /// `Organization` and its kinds (`Corporation`, `LocalBusiness`...).
    Organization(Organization),
    /// `Person`.
    Person(Person),
    /// `VideoObject`.
    VideoObject(VideoObject),
}

/// A product and what it costs.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct Product {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub brand: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sku: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gtin: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mpn: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Each offer (an `AggregateOffer` gives the range of its offers).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub offers: Vec<Offer>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<Rating>,
}

/// A price: an `Offer` (`price`) or an `AggregateOffer` (`lowPrice`,
/// `highPrice`, `offerCount`). Prices are kept as the page wrote them
/// ("19.99"), never rounded through a float.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct Offer {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub low_price: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub high_price: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price_currency: Option<String>,
    /// `InStock`, `OutOfStock`, `PreOrder`... (the schema.org prefix removed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub availability: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item_condition: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offer_count: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price_valid_until: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seller: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

/// An `AggregateRating`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct Rating {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating_value: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_rating: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating_count: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub review_count: Option<String>,
}

/// An article or a blog post.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct Article {
    /// The page's own type: `NewsArticle`, `BlogPosting`...
    pub article_type: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub headline: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date_published: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date_modified: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub publisher: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub section: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

/// A recipe.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct Recipe {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    /// ISO 8601 durations as written (`PT20M`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prep_time: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cook_time: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_time: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recipe_yield: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calories: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ingredients: Vec<String>,
    /// The steps, sections flattened.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub instructions: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<Rating>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

/// An event.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct Event {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_date: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_date: Option<String>,
    /// `EventScheduled`, `EventCancelled`, `EventPostponed`...
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_status: Option<String>,
    /// `OfflineEventAttendanceMode`, `OnlineEventAttendanceMode`...
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attendance_mode: Option<String>,
    /// The place's name and address, or the online location's URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub organizer: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub performer: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub offers: Vec<Offer>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

/// A page of questions and their answers.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct FaqPage {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub questions: Vec<Faq>,
}

/// One question and its accepted answer, as text.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct Faq {
    pub question: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
}

/// Where the page sits in its site, from the top.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct BreadcrumbList {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<Crumb>,
}

/// One step of a breadcrumb trail.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct Crumb {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

/// An organisation or a business.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct Organization {
    /// The page's own type when more precise (`LocalBusiness`, `Restaurant`...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub organization_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logo: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub telephone: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub same_as: Vec<String>,
}

/// A person.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct Person {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job_title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub affiliation: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub same_as: Vec<String>,
}

/// A video.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct VideoObject {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upload_date: Option<String>,
    /// ISO 8601 duration as written (`PT4M13S`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub embed_url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thumbnail_url: Option<String>,
}
