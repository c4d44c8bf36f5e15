"""The translation catalogs are complete and compiled: every text of the templates and the web code has
its Russian, and the committed .mo is the .po compiled (scorekeeper.i18n.catalogs)."""

from __future__ import annotations

from scorekeeper.i18n import catalogs


def test_every_text_is_translated_and_compiled():
    assert catalogs.problems() == []


def test_a_new_text_without_its_translation_is_found(monkeypatch):
    real = catalogs.template

    def with_a_new_text():
        catalog = real()
        catalog.add("A sentence nobody translated", locations=[("templates/new.html", 3)])
        return catalog

    monkeypatch.setattr(catalogs, "template", with_a_new_text)
    assert catalogs.problems() == ["ru/messages: untranslated 'A sentence nobody translated' (templates/new.html:3)"]


def test_a_translation_of_a_text_no_longer_used_is_found(monkeypatch):
    real = catalogs.template

    def without_one():
        catalog = real()
        del catalog["Log in"]
        return catalog

    monkeypatch.setattr(catalogs, "template", without_one)
    assert catalogs.problems() == ["ru/messages: 'Log in' is no longer used"]


def test_the_templates_are_read_for_texts():
    found = catalogs.template().get("Language")
    assert found is not None and ("templates/base.html" in {file for file, _ in found.locations})
