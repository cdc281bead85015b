//! Markup conventions of the web beyond articles (issue 12): each test is
//! a hand-written page in the shape many sites share.

use farsight_extract::{ExtractOptions, Format, extract};

use crate::{page, run};

fn text_of(html: &str, url: &str) -> String {
    extract(html, &ExtractOptions::new(Format::Text).base_url(url)).content
}

/// Discourse and server-rendered fallbacks of single-page apps put the
/// whole page inside `<noscript>` and show a splash screen to browsers with
/// scripts: the `<noscript>` is the page.
#[test]
fn a_page_served_inside_noscript_is_read_from_there() {
    let html = page("noscript-thread.html");
    let text = text_of(
        &html,
        "https://forum.example/t/tent-pegs-for-sandy-ground/4411",
    );
    for said in [
        "standard pegs pull straight out",
        "Sand anchors",
        "Rock solid",
    ] {
        assert!(text.contains(said), "{said:?} missing from {text}");
    }
    assert!(!text.contains("Powered by"), "{text}");
}

/// A `<noscript>` beside a page that has its own text is what browsers
/// without scripts see instead of a widget: never content.
#[test]
fn a_noscript_beside_real_text_stays_hidden() {
    let prose = "A paragraph of the article itself, long enough to be the content. ".repeat(12);
    let html = format!(
        "<html><body><article><h1>Title</h1><p>{prose}</p>\
         <noscript><p>Please enable JavaScript to view the comments, which need it \
         to load from our comment provider, and to see the video player above.</p></noscript>\
         </article></body></html>"
    );
    let text = text_of(&html, "https://example.com/a");
    assert!(text.contains("article itself"), "{text}");
    assert!(!text.contains("enable JavaScript"), "{text}");
}

// React's streamed server rendering (Next.js's App Router) sends a Suspense
// boundary's content after the footer in `<div hidden id="S:N">` and a
// script moves it over the fallback at `<template id="B:N">`: the content
// is read in its place, the loading skeleton is not.
#[test]
fn react_streamed_content_is_read_in_place_of_its_fallback() {
    for format in [Format::Text, Format::Markdown] {
        let out = run("react-streamed.html", format).content;
        assert!(
            out.contains("breached on purpose in the spring"),
            "{format:?}: {out}"
        );
        assert!(out.contains("store carbon again in its mud"), "{out}");
        assert!(!out.contains("Loading story"), "{out}");
        assert!(!out.contains("All rights reserved"), "{out}");
    }
}

// A service page without a `<main>` spreads its content over sections of
// cards, plans and questions; Readability picks the one with the most
// prose. The body, cleaned as picked blocks are, holds them all.
#[test]
fn a_service_page_without_main_keeps_its_sections() {
    for format in [Format::Text, Format::Markdown] {
        let out = run("service-sections.html", format).content;
        for kept in [
            "We started with one van and two brothers",
            "From a studio flat to a four-bedroom house",
            "£690 for a three-bedroom house",
            "Do you move on weekends?",
        ] {
            assert!(out.contains(kept), "{format:?}: {kept:?} missing: {out}");
        }
        assert!(!out.contains("All rights reserved"), "{out}");
    }
}

// An anti-flicker wrapper (`visibility:hidden` on the whole page until a
// script shows it) and entrance animations (`opacity:0`) hide nothing a
// reader misses; a small `visibility:hidden` tooltip stays hidden.
#[test]
fn a_page_hidden_until_its_scripts_run_is_read() {
    for format in [Format::Text, Format::Markdown] {
        let out = run("hidden-until-scripts.html", format).content;
        for kept in [
            "The night train came back to Europe quietly",
            "Vienna to Paris now runs three nights a week",
            "the timetables change every season",
        ] {
            assert!(out.contains(kept), "{format:?}: {kept:?} missing: {out}");
        }
        assert!(!out.contains("Copied to clipboard"), "{out}");
    }
}

// A page-lock app (Shopify's password and age gates) wraps the whole page
// in `display:none` until a script decides: holding most of the page's
// text, the wrapper is the page. A small `display:none` modal and a
// collapsed size chart stay hidden.
#[test]
fn a_page_locked_until_its_scripts_run_is_read() {
    for format in [Format::Text, Format::Markdown] {
        let out = run("locked-until-scripts.html", format).content;
        for kept in [
            "Poured in a sand mould and seasoned twice",
            "the flat base works on gas, electric and induction",
            "Never leave it to soak",
        ] {
            assert!(out.contains(kept), "{format:?}: {kept:?} missing: {out}");
        }
        for gone in ["Sign up for our newsletter", "Size chart"] {
            assert!(!out.contains(gone), "{format:?}: {gone:?} kept: {out}");
        }
    }
}

// WAI-ARIA tabs: the panel of a tab not selected is hidden until its tab is
// clicked, one click away, and stays (the other languages of a code
// sample). A hidden toast that is no tab panel goes.
#[test]
fn hidden_tab_panels_are_read() {
    for format in [Format::Text, Format::Markdown] {
        let out = run("tab-panels.html", format).content;
        for kept in [
            "Install the Python library with pip",
            "Install the Node.js library with npm",
            "await client.messages.send",
            "the answer holds the message's identifier",
        ] {
            assert!(out.contains(kept), "{format:?}: {kept:?} missing: {out}");
        }
        assert!(!out.contains("Copied to clipboard"), "{out}");
    }
}
