//! The class/id word tables, each with how it matches and why. Which pass
//! reads a table is named in its comment; the pass decides what a match
//! means (remove, keep, count).

use super::Table;

// --- Page furniture (boilerplate.rs, density.rs, region.rs) ---

/// Furniture anywhere on a page: navigation, headers, footers, sidebars,
/// sharing, promotion. Word parts: `nav` and `header` name furniture in
/// `main-nav` and `site-header`, but `navy` and `subheader` are not
/// furniture; `skip-link` is two parts in a row.
pub(crate) static NOISE: Table = Table::parts(&[
    "similar",
    "suggested",
    "nav",
    "navbar",
    "menu",
    "footer",
    "header",
    "sidebar",
    "breadcrumb",
    "cookie",
    "consent",
    "banner",
    "share",
    "social",
    "related",
    "newsletter",
    "advert",
    "ads",
    "promo",
    "popup",
    "modal",
    "subscribe",
    "skip-link",
    "comments",
    // phpBB's jump box after a topic (`id="jumpbox"`: "Jump to" and a
    // drop-down of every forum of the board) and its "Return to" link
    // (`jumpbox-return`).
    "jumpbox",
]);

/// The types of Adobe Experience Manager's components that marketing pages
/// are built of and that [`NOISE`] and [`TEASER`] would read as promotion:
/// the Core Components' Teaser (an image, a title, a description and a
/// link), a promotion card and a call to action's banner. Not words of a
/// table: in an AEM component's class or generated id they are left out
/// before any table reads it (see `without_aem_component_names`).
pub(crate) const AEM_CONTENT_COMPONENTS: &[&str] = &["teaser", "promo", "banner"];

/// The word parts before `menu` in a class name that make it a tab
/// widget's list of tabs, not a site menu (`w-tab-menu`, `faq_tabs-menu`):
/// the word is left out before any table reads it (see `without_tab_menus`).
pub(crate) const TAB_WIDGET: &[&str] = &["tab", "tabs"];

/// Framer's class on one breakpoint's copy of a component (`clean.rs`):
/// a whole class name. Not a table: it is read with the breakpoint's
/// `hidden-<id>` class beside it, whose id only the page's stylesheet
/// explains.
pub(crate) const FRAMER_VARIANT: &str = "ssr-variant";

/// The prefix of Framer's class that hides a copy at one breakpoint.
pub(crate) const FRAMER_HIDDEN: &str = "hidden-";

/// Class names of a layout wrapper named for the sidebar beside it, whole
/// or after a prefix (`full-width-template-with-sidebar`): not a sidebar
/// (`readability.rs`).
pub(crate) const SIDEBAR_LAYOUT: &[&str] = &["with-sidebar", "has-sidebar", "no-sidebar"];

/// Furniture that sits inside `<main>` on service, shop and listing pages,
/// on top of [`NOISE`]: ratings, carts, filters, pagination. Word parts, as
/// [`NOISE`] (`woocommerce-pagination`, `product-cross-sell`; `sort` is not
/// `sorted-list`). `star-rating` needs no entry: `rating` is one.
pub(crate) static REGION_NOISE: Table = Table::parts(&[
    "rating",
    "ratings",
    "cart",
    "basket",
    "stars",
    "filter",
    "filters",
    "facet",
    "facets",
    "sort",
    "sorting",
    "pagination",
    "pager",
    "recently",
    "upsell",
    "upsells",
    "crosssell",
    "cross-sell",
    "breadcrumbs",
    "feedback",
    "announcement",
    "toolbar",
    // A shop grid's "Quick view" button on each card (Astra's
    // `ast-quick-view-button`, Shopify themes' `quick-view`, `quickview`).
    "quick-view",
    "quickview",
]);

/// The words of [`REGION_NOISE`] that name a shop's filter or facet
/// panel (`region.rs`): such a panel holding a paragraph of prose is not
/// one. Word parts, as [`REGION_NOISE`].
pub(crate) static FILTER: Table = Table::parts(&["filter", "filters", "facet", "facets"]);

/// A table of contents (`toc`, `ez-toc-container`, `toc-list`), furniture
/// inside `<main>` as [`REGION_NOISE`] is, but only when it is mostly
/// links (`region.rs`): the sections such a table leads to often carry
/// the word in their id (The Motley Fool's `toc_how-they-work`, a
/// theme's `toc-para`), and they are the article. Word parts, as
/// [`REGION_NOISE`] (`tocbot` is not one).
pub(crate) static TABLE_OF_CONTENTS: Table = Table::parts(&["toc"]);

/// An accordion: a set of panels, each opened by its heading (Kadence
/// Blocks' `wp-block-kadence-accordion` and `kt-accordion-pane`,
/// Elementor's `elementor-accordion`, Bootstrap's `accordion-item`). Its
/// panels are one click away: content, which Readability's cleaning drops
/// as widgets (`passes.rs`). Word parts.
pub(crate) static ACCORDION: Table = Table::parts(&["accordion"]);

/// An FAQ's answer and its question, side by side (`faq__answer` after
/// `faq__question`, `faq-answer` after `faq-question`): FAQ scripts hide
/// the answer with inline `display:none` until its question is clicked,
/// one click away, like an accordion's panel: content (`clean.rs`). Word
/// parts.
pub(crate) static FAQ_ANSWER: Table = Table::parts(&["answer"]);

/// The question an [`FAQ_ANSWER`] follows. Word parts.
pub(crate) static FAQ_QUESTION: Table = Table::parts(&["question"]);

/// A card: one entry of a grid or row of things (Bootstrap's `card`,
/// BEM blocks and elements such as `product-card`, `brwrvr__item-card`).
/// The furniture word `header` in a class on or just below a card names
/// a part of the card (`card-header`, `item-card__signals__header`), not
/// the page's header (`boilerplate.rs`). Word parts: `cardigan` and
/// `scorecard` are not cards.
pub(crate) static CARD: Table = Table::parts(&["card"]);

/// "Showing 1-12 of 40 results" lines of a listing; read in the class only.
/// Fragments: shops prefix them (`woocommerce-result-count`).
pub(crate) static RESULT_COUNT: Table = Table::fragments(&[
    "result-count",
    "results-count",
    "resultcount",
    "serp-count",
    "grid-count",
]);

/// A blog archive's description: WordPress's `the_archive_description()`
/// in core themes and the Genesis framework (`archive-description`,
/// `taxonomy-description`). Whole names, read in the class only.
pub(crate) static ARCHIVE_DESCRIPTION: Table =
    Table::tokens(&["archive-description", "taxonomy-description"]);

/// "Edit this page" links of documentation. Fragments, written as compounds
/// (`theme-edit-this-page`); not the word `edit` alone, which GitHub puts
/// on the wrapper of every comment.
pub(crate) static EDIT_PAGE: Table =
    Table::fragments(&["edit-this-page", "edit-page", "editthispage", "page-edit"]);

// --- Forum threads (threads.rs) ---

/// A post of a thread, in the class only. Whole names: `post` and
/// `comment` begin the class of every part of a post (`post-body`,
/// `comment-meta`), and a thread is told by its posts, not their parts;
/// `_` separates names (Simple Machines' `post_wrapper` is the post).
pub(crate) static POST: Table = Table::tokens(&[
    "post",
    "message",
    "reply",
    "comment",
    "answer",
    "topic-post",
]);

/// A post's author, in the class only. Fragments: forums write them into
/// compounds (`postauthor`, `message-username`, `topic-poster`).
pub(crate) static POST_AUTHOR: Table =
    Table::fragments(&["author", "username", "user-name", "poster"]);

/// A post's own text, by the class a forum engine gives it: XenForo 2's
/// `message-body` (its thread starter carries no microdata, its replies
/// do), XenForo 1's `messageText`, Discourse's `cooked`. Whole names:
/// `message-body-wrapper`, `messageTextEndMarker` or a `cooked-recipe` are
/// something else. Read in the class only (`posts.rs`).
pub(crate) static POST_TEXT: Table = Table::tokens(&["message-body", "messagetext", "cooked"]);

// --- Inside the chosen content (inner.rs) ---

/// Captions, whatever the prefix (`wp-caption-text`, Etsy's
/// `wt-text-caption`). Fragments.
pub(crate) static CAPTION: Table = Table::fragments(&["caption"]);

/// Bootstrap's `.thumbnail > .caption`: the text of a card under its image
/// (a product's name and price). A whole name.
pub(crate) static CARD_CAPTION: Table = Table::tokens(&["caption"]);

/// What sits beside an image without describing it: photo credits, slide
/// counters ("3 of 12") and slideshow widgets, whose every caption comes
/// twice or more (once per size, "more"/"less", "Caption", "Close"); the
/// BBC's `image-copyright`. Fragments: `imagecredit`, `slidecount`.
pub(crate) static CREDIT: Table = Table::fragments(&[
    "credit",
    "image-copyright",
    "slidecount",
    "slide-count",
    "gallery",
]);

/// Slideshow widgets, whose captions come with their controls. Fragments:
/// `image-gallery`, `slideshowContainer`, `owl-carousel`.
pub(crate) static SLIDESHOW: Table = Table::fragments(&["gallery", "slideshow", "carousel"]);

/// Short metadata blocks of an article: bylines, dates, tags. Fragments:
/// `c-byline__author`, `entry-date-published`, `article-tags`.
pub(crate) static META: Table = Table::fragments(&[
    "byline",
    "dateline",
    "timestamp",
    "author",
    "published",
    "pubdate",
    "post-date",
    "postdate",
    "entry-date",
    "storydate",
    "post-views",
    "entry-meta",
    "post-meta",
    "article-meta",
    "tags",
    "tag-list",
    "taglist",
]);

/// Teasers and calls to action. Fragments: `right-rail`,
/// `OUTBRAIN_widget`, `newsletter-signup-box`.
pub(crate) static TEASER: Table = Table::fragments(&[
    "teaser",
    "rail",
    "trending",
    "recommend",
    "more-stories",
    "morestories",
    "read-more",
    "readmore",
    "outbrain",
    "taboola",
    "newsletter",
    "signup",
]);

/// Classes that hide text from sighted readers. Whole names: `hidden`
/// inside `overflow-hidden` or `hidden-xs` hides nothing on a desktop page.
pub(crate) static HIDDEN: Table = Table::tokens(&[
    "d-none",
    "sr-only",
    "screen-reader-text",
    "visually-hidden",
    "visuallyhidden",
    "hidden",
]);

/// Text for screen readers only, whatever the prefix (Etsy's
/// `wt-screen-reader-only`, `tribe-common-a11y-visual-hide`). The BBC's
/// `off-screen` ("Image caption" before each caption) too; Bootstrap 5's
/// `visually-hidden`. Fragments.
pub(crate) static SCREEN_READER: Table = Table::fragments(&[
    "screen-reader",
    "a11y-visual-hide",
    "sr-only",
    "off-screen",
    "visually-hidden",
    "visuallyhidden",
]);

/// A forum post's author panel beyond the name (rank, post count, join
/// date), its action bar and guest banners: people marking a thread keep
/// who wrote and when, not the poster's statistics. Fragments: forums
/// write them as compounds (`postprofile`, `userinfo_extra`).
pub(crate) static USER_PANEL: Table = Table::fragments(&[
    "postcount",
    "membergroup",
    "user_info",
    "guest",
    "post-actions",
    "post-controls",
    "postcontrols",
    "post-menu",
    "post-buttons",
    "actionbar",
    "action-bar",
    "userextras",
    "userinfo_extra",
    "userinfo-extra",
    "usertitle",
    "user-title",
    "userbanner",
    "user-banner",
    "postprofile",
    "user-stats",
    "userstats",
    "profile-rank",
    "author-stats",
    "reaction",
]);

/// A post's quote of an earlier post, which the thread already shows:
/// XenForo's `bbCodeBlock--quote`, vBulletin's `bbcode_quote`, MyBB's
/// `mycode_quote`, Simple Machines' `bbc_standard_quote`, Discourse's
/// `quote`. Word parts: not `blockquote` or `quoted-price`'s `quoted`.
pub(crate) static POST_QUOTE: Table = Table::parts(&["quote"]);

/// A post's signature. Fragments (`signaturecontainer`).
pub(crate) static SIGNATURE: Table = Table::fragments(&["signature"]);

/// Stack Exchange's author card, which [`SIGNATURE`] would take for a
/// signature. Fragments.
pub(crate) static AUTHOR_CARD: Table = Table::fragments(&["post-signature"]);

/// An author's box below an article (`td-author-box`; themes' `author-block`
/// and WordPress block themes' `post-author-block`, `author-section`,
/// `author-card` and Webflow's `post-page-author-card`). Fragments.
pub(crate) static AUTHOR_BOX: Table = Table::fragments(&[
    "author-bio",
    "author-box",
    "about-author",
    "author-details",
    "author-block",
    "author-section",
    "author-card",
]);

/// "Sale", "Sold out", "New" badges. Word parts: `product-badge`, but not
/// `badger`; WooCommerce's sale badge is `onsale`.
pub(crate) static BADGE: Table = Table::parts(&["badge", "badges", "onsale"]);

/// A link styled as a button (`btn`, `button`, `btn--secondary`): on a
/// shop card, its action ("Quick shop", "View details", "Choose options").
/// Word parts: not `buttons-wrapper`'s `buttons` or `btnx`.
pub(crate) static BUTTON_LINK: Table = Table::parts(&["btn", "button"]);

/// Shopify Dawn's link from a product's form to the product's own page
/// (`product__view-details`, "View full details"), meant for its quick-add
/// modal and left in the page by Dawn and the themes built on it (Sense,
/// Craft, Refresh, ...). Whole names, split on `_`: `view-details`.
pub(crate) static VIEW_DETAILS: Table = Table::tokens(&["view-details"]);

/// Review and customer-question widgets, furniture on a product page. Word
/// parts: `qa` and `tax` are words only alone (`qa-section`, not `aqua`).
pub(crate) static REVIEW: Table = Table::parts(&[
    "review",
    "reviews",
    "rating",
    "ratings",
    "yotpo",
    "jdgm",
    "okendo",
    "stamped",
    "questions",
    "qa",
    "qna",
]);

/// A product page's buying box beyond the price: stock, delivery, pickup,
/// tax and financing notes. Word parts, as [`REVIEW`].
pub(crate) static BUY_BOX: Table = Table::parts(&[
    "availability",
    "stock",
    "shipping",
    "delivery",
    "pickup",
    "tax",
    "financing",
    "installment",
    "installments",
    "klarna",
    "afterpay",
]);

/// Ads and calls to action. Word parts: `ad` is a word in `ad-slot`, not in
/// `header` or `adaptive`.
pub(crate) static AD: Table =
    Table::parts(&["ad", "ads", "advert", "advertisement", "sponsored", "cta"]);

/// Elementor's Call to Action widget (`elementor-cta`, its parts
/// `elementor-cta__title`, `elementor-cta__description`): a card that page
/// builders' sites fill with their content (a picture, a title, a
/// description, a button), not an advertisement, though [`AD`] reads `cta`
/// in its names. Word parts in a row.
pub(crate) static ELEMENTOR_CTA: Table = Table::parts(&["elementor-cta"]);

// --- Hidden classes that leave an element shown (clean.rs) ---

/// Class tokens that hide an element for everyone or on large screens, and
/// that Readability's "hidden" rule must still see; every other token
/// containing "hid" (`no-js-hidden`, `hidden-xs`) leaves the element shown
/// on a desktop page. Whole names: clean.rs looks each class token up
/// (`has_entry`) to keep or drop it.
pub(crate) static HIDDEN_ON_DESKTOP: Table = Table::tokens(&[
    "hide",
    "is-hidden",
    "u-hidden",
    "visually-hidden",
    "visuallyhidden",
    "hidden-lg",
    "hidden-md",
    "hidden-desktop",
    "desktop-hidden",
    "hide-desktop",
    "large-up-hide",
]);

/// Utility classes that hide an element from everyone, screen readers
/// included (`display:none` in the frameworks' stylesheets): Bootstrap 3
/// and Foundation's `hide` (BigCommerce's Cornerstone theme hides its raw
/// custom-field list with it), Bootstrap 4/5's `d-none`, Bulma's
/// `is-hidden`, SUIT's `u-hidden`. Whole names. Not `hidden`: Tailwind
/// pages toggle it on FAQ answers and tab panels, one click away (content;
/// measured: -0.2 on such pages). `sr-only` and `visually-hidden` are read
/// aloud and are not here either. clean.rs makes such an element wait as
/// inline `display:none` does.
pub(crate) static HIDDEN_BY_CLASS: Table =
    Table::tokens(&["hide", "d-none", "is-hidden", "u-hidden"]);

// --- Paywalls (paywall.rs) ---

/// What paywall vendors and publishers call their walls. Fragments: Piano's
/// `tp-modal`, `c-paywall__overlay`.
pub(crate) static PAYWALL: Table = Table::fragments(&[
    "paywall",
    "piano-offer",
    "tp-modal",
    "tp-container",
    "regwall",
    "subscriber-only",
    "subscribers-only",
    "premium-content",
    "metered-content",
    "article-locked",
    "content-locked",
    "subscription-wall",
]);

// --- Consent notices (consent.rs) ---

/// A fragment of every class or id [`consent`](crate::consent) can take for
/// a notice: a cheap first look, on every element's raw attributes, before
/// the class and id are read as words. Covers [`NOTICE_FRAGMENTS`],
/// [`NOTICE_TOKENS`], [`CMP_WORDS`] and [`COOKIE`] (a test checks it).
pub(crate) static NOTICE_HINTS: Table = Table::fragments(&[
    "consent",
    "gdpr",
    "onetrust",
    "cookie",
    "cmp",
    "cc-",
    "didomi",
    "usercentrics",
    "iubenda",
]);

/// Vendors' names and what notices call themselves, found only in consent
/// notices. Fragments: `CybotCookiebotDialog`, `cookieconsent`,
/// `onetrust-pc-sdk`.
pub(crate) static NOTICE_FRAGMENTS: Table = Table::fragments(&[
    "consent",
    "gdpr",
    "onetrust",
    "cookiebot",
    "cookielaw",
    "didomi",
    "usercentrics",
    "cmplz",
    "iubenda",
    "cookieyes",
]);

/// Notices whose words say nothing alone (Osano's Cookie Consent:
/// `cc-window cc-banner`). Whole names: `cc-` also begins credit-card and
/// closed-caption classes.
pub(crate) static NOTICE_TOKENS: Table = Table::tokens(&["cc-window", "cc-banner", "cc-revoke"]);

/// A consent management platform's own words (consentmanager's `cmpbox`).
/// Word parts; `cmp-` alone prefixes every Adobe Experience Manager
/// component, so `cmp` is not one (consent.rs also takes `cmp` and digits,
/// Quantcast's `qc-cmp2-container`).
pub(crate) static CMP_WORDS: Table = Table::parts(&["cmpbox", "cmpwrapper"]);

/// The cookie, which names a notice only beside one of
/// [`COOKIE_COMPANIONS`]: alone it is also a recipe's class. Word parts.
pub(crate) static COOKIE: Table = Table::parts(&["cookie", "cookies"]);

/// Words that name a notice beside [`COOKIE`] (`cookie-banner`,
/// `cookies_bar`, `js-cookie-notice`), or glued to it (`cookiebanner`:
/// consent.rs looks up the rest of such a part with `has_entry`). Word
/// parts.
pub(crate) static COOKIE_COMPANIONS: Table = Table::parts(&[
    "banner",
    "bar",
    "notice",
    "notification",
    "popup",
    "alert",
    "law",
    "message",
    "msg",
    "wall",
    "warning",
    "overlay",
    "modal",
    "dialog",
    "prompt",
    "disclaimer",
    "info",
]);

// --- Bylines (byline.rs) ---

/// A fragment of every class [`BYLINE`] can match: a cheap first look at
/// every element's raw class. Fragments (a test checks it covers
/// [`BYLINE`]).
pub(crate) static BYLINE_HINTS: Table = Table::fragments(&["author", "byline"]);

/// A class that marks an author's name: `byline`, `c-byline__author`,
/// `author-name`, `post-author`, `by-author`, WordPress's `author vcard`.
/// Word parts: `authority` is not a byline.
pub(crate) static BYLINE: Table =
    Table::parts(&["byline", "author", "authors", "byauthor", "authorname"]);

/// An author's box or a list of authors' pages, not a byline: their text is
/// a biography or a menu. Word parts (`author-bio`, `author-box`; not
/// `boxed`).
pub(crate) static NOT_A_BYLINE: Table = Table::parts(&[
    "bio",
    "box",
    "avatar",
    "description",
    "about",
    "info",
    "profile",
    "comment",
]);

/// A comment, whose author is not the page's; read in the class only.
/// Fragments: `comment-list`, `commentbody`, `comments`.
pub(crate) static COMMENT: Table = Table::fragments(&["comment"]);

/// Every table with its name: the lexicon that reads a class or id once
/// for all tables (`index.rs`), and the table-driven tests. A test checks
/// that every table of this file is here.
pub(crate) static ALL: &[(&str, &Table)] = &[
    ("NOISE", &NOISE),
    ("REGION_NOISE", &REGION_NOISE),
    ("FILTER", &FILTER),
    ("TABLE_OF_CONTENTS", &TABLE_OF_CONTENTS),
    ("ACCORDION", &ACCORDION),
    ("FAQ_ANSWER", &FAQ_ANSWER),
    ("FAQ_QUESTION", &FAQ_QUESTION),
    ("CARD", &CARD),
    ("RESULT_COUNT", &RESULT_COUNT),
    ("ARCHIVE_DESCRIPTION", &ARCHIVE_DESCRIPTION),
    ("EDIT_PAGE", &EDIT_PAGE),
    ("POST", &POST),
    ("POST_AUTHOR", &POST_AUTHOR),
    ("POST_TEXT", &POST_TEXT),
    ("CAPTION", &CAPTION),
    ("CARD_CAPTION", &CARD_CAPTION),
    ("CREDIT", &CREDIT),
    ("SLIDESHOW", &SLIDESHOW),
    ("META", &META),
    ("TEASER", &TEASER),
    ("HIDDEN", &HIDDEN),
    ("SCREEN_READER", &SCREEN_READER),
    ("USER_PANEL", &USER_PANEL),
    ("POST_QUOTE", &POST_QUOTE),
    ("SIGNATURE", &SIGNATURE),
    ("AUTHOR_CARD", &AUTHOR_CARD),
    ("AUTHOR_BOX", &AUTHOR_BOX),
    ("BADGE", &BADGE),
    ("BUTTON_LINK", &BUTTON_LINK),
    ("VIEW_DETAILS", &VIEW_DETAILS),
    ("REVIEW", &REVIEW),
    ("BUY_BOX", &BUY_BOX),
    ("AD", &AD),
    ("ELEMENTOR_CTA", &ELEMENTOR_CTA),
    ("HIDDEN_ON_DESKTOP", &HIDDEN_ON_DESKTOP),
    ("HIDDEN_BY_CLASS", &HIDDEN_BY_CLASS),
    ("PAYWALL", &PAYWALL),
    ("NOTICE_HINTS", &NOTICE_HINTS),
    ("NOTICE_FRAGMENTS", &NOTICE_FRAGMENTS),
    ("NOTICE_TOKENS", &NOTICE_TOKENS),
    ("CMP_WORDS", &CMP_WORDS),
    ("COOKIE", &COOKIE),
    ("COOKIE_COMPANIONS", &COOKIE_COMPANIONS),
    ("BYLINE_HINTS", &BYLINE_HINTS),
    ("BYLINE", &BYLINE),
    ("NOT_A_BYLINE", &NOT_A_BYLINE),
    ("COMMENT", &COMMENT),
];
