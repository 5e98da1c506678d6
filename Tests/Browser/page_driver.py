#!/usr/bin/python3
"""Drives the person's page in headless Chromium as a person does: by what tiles and buttons are called.

  page_driver.py grant URL APP NAME... --shots DIR
      signs in with the one-time URL, opens APP's "Edit Selected Photos…", checks the
      tiles whose accessible names begin with each NAME, saves, and waits for the notice.
  page_driver.py sheet URL select|full|deny|pick NAME... --shots DIR
      signs in and waits on the apps page; prints "ready" once it is open, then waits (without
      reloading) for a request's sheet to appear and answers it as a person would: "Select
      Photos…" and the tiles NAME… then "Done"; "Allow Full Access"; "Don't Allow"; or, for a
      pick, the tiles NAME… in that order, then "Add (N)".
  page_driver.py keys URL APP ALBUM
      opens APP's editor, shares the whole album ALBUM, then from the keyboard alone: Tab into
      the grid, ArrowRight, Space (ticks that photo), Enter (saves).
  page_driver.py show URL report|library --shots DIR
      signs in, opens that section as a person clicks its link, and prints what it shows.
  page_driver.py probe URL
      loads URL and prints what the page shows (for attack tests: a refusal, never data).
  page_driver.py search URL APP TEXT...
      opens APP's editor and, for each TEXT, types it into the search box and presses Enter;
      prints the names of the tiles each search shows.
  page_driver.py browse URL APP ALBUM MONTH --shots DIR
      opens APP's editor, switches to Albums and prints each card (its label, whether its cover
      drew), opens ALBUM's card, then every photo again, then jumps to the month whose option
      begins with MONTH ("July 2024"); prints the tiles shown at each step and the month list.
  page_driver.py follow URL APP WORDS
      signs in and waits on the apps page; prints "ready", then waits (without reloading) until
      APP's card says WORDS, and prints what it says.
  page_driver.py access URL APP CHOICE --shots DIR
      signs in, finds APP's card on the Apps list, prints what it shows (its name, small print,
      access, notes, whether its icon drew), then picks CHOICE ("Selected Photos", "None", "Full
      Access") from its Access menu as a person does (with --confirm, reads the question the page asks
      and says yes), and prints the notice and what the card says after.
  page_driver.py frame URL
      signs in with the one-time URL, then opens a page of another origin (served here, on
      another port) that frames ours, as a hostile site would; prints what the frame holds and
      what the browser said about it.

Prints one JSON object on its last line. Debian's chromium and chromedriver, selenium 4 (python3-selenium).
"""
import argparse, contextlib, http.server, json, os, sys, threading

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import InvalidSessionIdException, SessionNotCreatedException, NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as seen
from selenium.webdriver.support.ui import WebDriverWait


def browser():
    options = webdriver.ChromeOptions()
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900", "--disable-dev-shm-usage",
                 "--no-first-run", "--disable-background-networking"):
        options.add_argument(flag)
    # Under a loaded machine Chromium sometimes exits while it starts ("session not created: Chrome
    # instance exited"), before it has loaded anything: starting it again is safe, and the third failure is reported.
    for attempt in range(3):
        try:
            return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        except SessionNotCreatedException:
            if attempt == 2:
                raise


@contextlib.contextmanager
def signed_in(url):
    """Chromium on URL (a one-time sign-in link signs it in), quit however the caller ends."""
    driver = browser()
    try:
        try:
            driver.get(url)
        except InvalidSessionIdException as crash:
            # Chromium itself died while starting (seen once in CI under load, "the browser has closed
            # the connection"): a new one, once. Had the link reached the page server, it is used, and
            # the page says so: a refusal, never a pass.
            print(f"chromium died loading the page ({crash.msg}); starting it again", file=sys.stderr, flush=True)
            with contextlib.suppress(Exception):
                driver.quit()
            driver = browser()
            driver.get(url)
        yield driver
    finally:
        driver.quit()


def tile_name(tile):
    """A tile's file name: its checkbox's accessible name, before the date."""
    return tile.find_element(By.TAG_NAME, "input").accessible_name.split(",")[0]


def wait(driver, condition, what, seconds=30):
    try:
        # The page replaces what it shows as it loads: an element found a moment ago may be gone.
        return WebDriverWait(driver, seconds, ignored_exceptions=(NoSuchElementException, StaleElementReferenceException)).until(condition)
    except Exception as error:
        # What the page logged, and what it would read now: enough to tell a race in the page from a slow daemon.
        console, pending = [], None
        with contextlib.suppress(Exception):
            console = [f"{e.get('level')}: {e.get('message')}" for e in driver.get_log("browser")][-20:]
        with contextlib.suppress(Exception):
            pending = driver.execute_async_script(
                "const done = arguments[arguments.length - 1];"
                "fetch('/api/requests').then(r => r.text()).then(done, e => done(String(e)));")
        raise SystemExit(json.dumps({"error": f"timed out waiting for {what}", "page": driver.find_element(By.TAG_NAME, "body").text[:2000],
                                     "url": driver.current_url, "console": console, "requestsNow": pending})) from error


def click_tile(driver, scope, name, what):
    """Clicks the tile NAME as a person does (its label, not the hidden input), found afresh in SCOPE(driver).

    The page redraws its grid as the event stream brings news (a thumbnail, a sheet's note), so a
    tile found a moment ago may be gone by the click: Selenium then refuses the click (stale) without
    making it, and the tile is found again rather than the run failing.
    """
    def found_and_clicked(d):
        box = tile(scope(d), name)
        if box is None:
            return False
        box.find_element(By.XPATH, "..").click()
        return True
    wait(driver, found_and_clicked, what)


def tile(driver, name):
    """The checkbox whose accessible name begins with NAME (then the date)."""
    for box in driver.find_elements(By.CSS_SELECTOR, "input[type=checkbox]"):
        if box.accessible_name.startswith(name + ","):
            return box
    return None


def grant(args):
    with signed_in(args.url) as driver:
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "li.app"), "the apps to be listed")
        shot(driver, args.shots, "apps")
        card = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, f'li.app[data-app="{args.app}"]'), f"{args.app}'s card")
        card.find_element(By.LINK_TEXT, "Edit Selected Photos…").click()
        for name in args.names:
            click_tile(driver, lambda d: d, name, f"the tile {name}")
        checked = [b.accessible_name for b in driver.find_elements(By.CSS_SELECTOR, "input[type=checkbox]") if b.is_selected()]
        # The screenshot shows what the person sees: the thumbnails, not the tiles waiting for them.
        wait(driver, lambda d: all(d.execute_script("return arguments[0].complete", i) for i in d.find_elements(By.CSS_SELECTOR, ".tile img")),
             "the thumbnails to load")
        shot(driver, args.shots, "grid")
        driver.find_element(By.XPATH, "//button[normalize-space()='Save']").click()
        notice = wait(driver, lambda d: d.find_element(By.ID, "notice").text.startswith("Saved") and d.find_element(By.ID, "notice").text,
                      "the saved notice")
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "li.app"), "the apps again")
        access = driver.find_element(By.CSS_SELECTOR, f'li.app[data-app="{args.app}"] .access').text
        shot(driver, args.shots, "apps-after")
        print(json.dumps({"checked": checked, "notice": notice, "access": access}))


def sheet(args):
    with signed_in(args.url) as driver:
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "h2"), "the page to open")
        print("ready", flush=True)
        # The sheet is found afresh each time: the page may redraw it as news comes in.
        sheet_now = lambda d: d.find_element(By.CSS_SELECTOR, "dialog.sheet[open]")
        title, kind = wait(driver, lambda d: (sheet_now(d).find_element(By.TAG_NAME, "h2").text, sheet_now(d).get_attribute("data-kind")),
                           "a request's sheet", seconds=60)
        note = ""
        if kind == "pick":
            # The line saying what the app gets settles once the app's location is known.
            note = wait(driver, lambda d: [n.text for n in sheet_now(d).find_elements(By.CSS_SELECTOR, ".pick-note") if "taken" in n.text],
                        "the pick's note")[0]
        for words in args.toggle:
            # Options opens like a person opens it, then the option's label is clicked.
            def opened_and_flipped(d, words=words):
                panel = sheet_now(d).find_element(By.CSS_SELECTOR, "details.pick-options")
                if panel.get_attribute("open") is None:
                    panel.find_element(By.TAG_NAME, "summary").click()
                labels = [l for l in panel.find_elements(By.CSS_SELECTOR, "label.option") if l.text.startswith(words)]
                if not labels:
                    return False
                labels[0].click()
                return True
            wait(driver, opened_and_flipped, f"the option {words}")
        if args.toggle:
            note = wait(driver, lambda d: [n.text for n in sheet_now(d).find_elements(By.CSS_SELECTOR, ".pick-note") if "taken" in n.text],
                        "the pick's note after the options")[0]
        shot(driver, args.shots, "sheet")
        if args.choice == "leave":
            # The person closes the page without answering.
            print(json.dumps({"title": title, "kind": kind, "note": note}))
            return
        def press(words):
            def found_and_pressed(d):
                buttons = [b for b in sheet_now(d).find_elements(By.TAG_NAME, "button") if b.text.startswith(words)]
                if buttons:
                    buttons[0].click()
                return bool(buttons)
            wait(driver, found_and_pressed, words)
        if args.choice == "full":
            press("Allow Full Access")
        elif args.choice == "deny":
            press("Don\u2019t Allow")
        else:
            if args.choice == "select":
                press("Select Photos")
            for name in args.names:
                click_tile(driver, sheet_now, name, f"the tile {name} in the sheet")
            # As for the grid: the shot shows the thumbnails a person chooses by, not the tiles waiting for them.
            wait(driver, lambda d: all(d.execute_script("return arguments[0].complete", i) for i in sheet_now(d).find_elements(By.CSS_SELECTOR, ".tile img")),
                 "the sheet's thumbnails to load")
            shot(driver, args.shots, "sheet-chosen")
            # Tiles the app cannot open are there but cannot be chosen.
            unreadable = sorted(b.accessible_name.split(",")[0] for b in sheet_now(driver).find_elements(By.CSS_SELECTOR, ".tile input[type=checkbox]")
                                if not b.is_enabled())
            press("Add (" if args.choice == "pick" else "Done")
        wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, "dialog.sheet[open]"), "the sheet to close")
        print(json.dumps({"title": title, "kind": kind, "note": note, "notice": driver.find_element(By.ID, "notice").text,
                          "unreadable": unreadable if args.choice in ("pick", "select") else []}))


def keys(args):
    from selenium.webdriver.common.keys import Keys
    with signed_in(args.url) as driver:
        card = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, f'li.app[data-app="{args.app}"]'), f"{args.app}'s card")
        card.find_element(By.LINK_TEXT, "Edit Selected Photos…").click()
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".grid input[type=checkbox]"), "the grid")
        driver.find_element(By.CSS_SELECTOR, "details.albums summary").click()
        album = wait(driver, lambda d: [b for b in d.find_elements(By.CSS_SELECTOR, "details.albums input") if b.accessible_name == f"The whole album {args.album}"],
                     f"the album {args.album}")[0]
        album.find_element(By.XPATH, "..").click()
        active = lambda: driver.switch_to.active_element
        for _ in range(60):
            if active().get_attribute("data-id"):
                break
            active().send_keys(Keys.TAB)
        first = active().accessible_name
        active().send_keys(Keys.ARROW_RIGHT)
        toggled = active().accessible_name
        active().send_keys(Keys.SPACE)
        focus_ring = driver.execute_script("return getComputedStyle(document.activeElement.parentElement).outlineStyle")
        active().send_keys(Keys.ENTER)
        notice = wait(driver, lambda d: d.find_element(By.ID, "notice").text.startswith("Saved") and d.find_element(By.ID, "notice").text, "the saved notice")
        print(json.dumps({"first": first, "toggled": toggled, "notice": notice, "focusRing": focus_ring}))


def show(args):
    with signed_in(args.url) as driver:
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "li.app") or d.find_elements(By.CSS_SELECTOR, "main p"), "the page to open")
        driver.find_element(By.LINK_TEXT, args.section.capitalize()).click()
        heading = {"report": "App Privacy Report", "library": "Your library"}[args.section]
        wait(driver, lambda d: d.find_element(By.TAG_NAME, "h2").text == heading, heading)
        if args.section == "report":
            wait(driver, lambda d: all(i.get_property("naturalWidth") > 0 for i in d.find_elements(By.CSS_SELECTOR, ".report-entry img")),
                 "the report's thumbnails to load")
        shot(driver, args.shots, args.section)
        print(json.dumps({
            "heading": driver.find_element(By.TAG_NAME, "h2").text,
            "apps": [e.get_attribute("data-app") for e in driver.find_elements(By.CSS_SELECTOR, ".report-app")],
            "entries": [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".report-entry")],
            "thumbnails": sum(1 for i in driver.find_elements(By.CSS_SELECTOR, ".report-entry img") if i.get_property("naturalWidth") > 0),
            "state": " ".join(e.text for e in driver.find_elements(By.CSS_SELECTOR, "p.state")),
            "checks": [e.text for e in driver.find_elements(By.CSS_SELECTOR, "li.check")],
        }))


def probe(args):
    with signed_in(args.url) as driver:
        print(json.dumps({"title": driver.title, "text": driver.find_element(By.TAG_NAME, "body").text[:2000]}))


def search(args):
    with signed_in(args.url) as driver:
        card = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, f'li.app[data-app="{args.app}"]'), f"{args.app}'s card")
        card.find_element(By.LINK_TEXT, "Edit Selected Photos…").click()
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".tile") and not d.find_elements(By.CSS_SELECTOR, ".grid-area[aria-busy]"),
             "the grid")
        shown, notes = {}, {}
        for text in args.texts:
            box = driver.find_element(By.CSS_SELECTOR, "input[type=search]")
            if box.get_attribute("value") == text:
                # Nothing to type: the grid shows that search already (the whole library, at first).
                wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, ".grid-area[aria-busy]"), "the grid")
                wait(driver, lambda d: all(d.execute_script("return arguments[0].complete", i) for i in d.find_elements(By.CSS_SELECTOR, ".tile img")),
                     "the thumbnails to load")
                shown[text] = sorted(b.accessible_name.split(",")[0] for b in driver.find_elements(By.CSS_SELECTOR, ".tile input[type=checkbox]"))
                notes[text] = " ".join(p.text for p in driver.find_elements(By.CSS_SELECTOR, ".grid-area p.note"))
                continue
            for old in driver.find_elements(By.CSS_SELECTOR, ".tile"):
                driver.execute_script("arguments[0].dataset.before = '1'", old)
            box.clear()
            box.send_keys(text + "\n")
            # The grid starts again (its old tiles go), then is no longer busy.
            wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, ".tile[data-before]")
                 and not d.find_elements(By.CSS_SELECTOR, ".grid-area[aria-busy]"), f"the grid for {text!r}")
            shown[text] = sorted(b.accessible_name.split(",")[0] for b in driver.find_elements(By.CSS_SELECTOR, ".tile input[type=checkbox]"))
            notes[text] = " ".join(p.text for p in driver.find_elements(By.CSS_SELECTOR, ".grid-area p.note"))
        badges = {tile_name(t): t.find_element(By.CSS_SELECTOR, ".badge").text
                  for t in driver.find_elements(By.CSS_SELECTOR, ".tile") if t.find_elements(By.CSS_SELECTOR, ".badge")}
        painted = sorted(tile_name(t) for t in driver.find_elements(By.CSS_SELECTOR, ".tile")
                         if driver.execute_script("const i = arguments[0].querySelector('img'); return i.complete && i.naturalWidth > 0", t))
        print(json.dumps({"shown": shown, "notes": notes, "badges": badges, "painted": painted}))


def browse(args):
    """Albums and months in APP's editor: the Albums view's cards, an album opened, then a jump to a month."""
    with signed_in(args.url) as driver:
        card = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, f'li.app[data-app="{args.app}"]'), f"{args.app}'s card")
        card.find_element(By.LINK_TEXT, "Edit Selected Photos…").click()
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".tile") and not d.find_elements(By.CSS_SELECTOR, ".grid-area[aria-busy]"),
             "the grid")

        def tiles_after(action, what):
            for old in driver.find_elements(By.CSS_SELECTOR, ".tile"):
                driver.execute_script("arguments[0].dataset.before = '1'", old)
            action()
            wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, ".tile[data-before]")
                 and not d.find_elements(By.CSS_SELECTOR, ".grid-area[aria-busy]"), what)
            return [b.accessible_name.split(",")[0] for b in driver.find_elements(By.CSS_SELECTOR, ".tile input[type=checkbox]")]

        def press(words):
            wait(driver, lambda d: [b for b in d.find_elements(By.TAG_NAME, "button") if b.text == words], words)[0].click()

        press("Albums")
        cards = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".album-card"), "the album cards")
        wait(driver, lambda d: all(d.execute_script("return arguments[0].complete", i) for i in d.find_elements(By.CSS_SELECTOR, ".album-card img")),
             "the covers to load")
        shot(driver, args.shots, "albums")
        shown_cards = [{"label": c.accessible_name, "covered": driver.execute_script(
            "const i = arguments[0].querySelector('img'); return !!i && i.complete && i.naturalWidth > 0", c)} for c in cards]
        target = [c for c in cards if c.get_attribute("title") == args.album][0]
        in_album = sorted(tiles_after(target.click, f"the album {args.album}"))
        cards_after_opening = driver.find_element(By.CSS_SELECTOR, ".album-cards").is_displayed()
        chip = driver.find_element(By.CSS_SELECTOR, ".chip").text
        everything = sorted(tiles_after(lambda: driver.find_element(By.CSS_SELECTOR, ".chip").click(), "every photo again"))
        month = driver.find_element(By.CSS_SELECTOR, "select[aria-label='Jump to month']")
        months = [o.text for o in month.find_elements(By.TAG_NAME, "option")]
        option = [o for o in month.find_elements(By.TAG_NAME, "option") if o.text.startswith(args.month)][0]
        jumped = tiles_after(option.click, f"the grid from {args.month}")
        sections = [h.text for h in driver.find_elements(By.CSS_SELECTOR, ".grid-area h3.section")]
        shot(driver, args.shots, "jumped")
        print(json.dumps({"cards": shown_cards, "cardsAfterOpening": cards_after_opening, "album": in_album, "chip": chip, "all": everything, "months": months,
                          "jumped": jumped, "sections": sections}))


def follow(args):
    with signed_in(args.url) as driver:
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'li.app[data-app="{args.app}"]'), "the app's card")
        before = driver.find_element(By.CSS_SELECTOR, f'li.app[data-app="{args.app}"]').text
        driver.execute_script("window.notReloaded = true")
        print("ready", flush=True)
        card = wait(driver, lambda d: [c for c in d.find_elements(By.CSS_SELECTOR, f'li.app[data-app="{args.app}"]') if args.words in c.text],
                    f"the card to say {args.words}", seconds=60)[0]
        print(json.dumps({"before": before, "after": card.text, "reloaded": not driver.execute_script("return window.notReloaded === true")}))


def frame(args):
    with signed_in(args.url) as driver:
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "li.app") or d.find_elements(By.CSS_SELECTOR, "main p"), "the page to open")
        ours = args.url.split("/sign-in")[0] + "/#apps"
        hostile = f'<!doctype html><title>A hostile site</title><p>Click here!</p><iframe id="f" src="{ours}" width="800" height="600"></iframe>'.encode()

        class Hostile(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(hostile)))
                self.end_headers()
                self.wfile.write(hostile)

            def log_message(self, *_):
                pass

        # A thread per connection: a connection Chromium opens ahead and leaves idle must not hold up the page's request.
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Hostile)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            # Another port: another origin, though the same site, so the session cookie (SameSite=Strict)
            # goes with the frame's request; only the page's frame-ancestors 'none' stands in the way.
            driver.get(f"http://127.0.0.1:{server.server_address[1]}/")
            wait(driver, lambda d: d.execute_script("return document.readyState") == "complete", "the hostile page to load")
            driver.switch_to.frame(driver.find_element(By.ID, "f"))
            inside = {"url": driver.execute_script("return document.URL"),
                      "text": driver.execute_script("return document.body ? document.body.innerText : ''")[:500]}
            driver.switch_to.default_content()
        finally:
            server.shutdown()
        print(json.dumps({"frame": inside, "log": [entry["message"] for entry in driver.get_log("browser")]}))


def setting(args):
    """Chooses WORDS in the app's card menu named LABEL (its accessible name), as a person does; prints the notice."""
    from selenium.webdriver.support.ui import Select
    with signed_in(args.url) as driver:
        card = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, f'li.app[data-app="{args.app}"]'), f"{args.app}'s card")
        menu = wait(driver, lambda d: [m for m in card.find_elements(By.TAG_NAME, "select") if m.accessible_name == args.label][0],
                    f"the menu {args.label}")
        Select(menu).select_by_visible_text(args.choice)
        notice = wait(driver, lambda d: d.find_element(By.ID, "notice").text.startswith(args.app) and d.find_element(By.ID, "notice").text,
                      "the notice")
        print(json.dumps({"notice": notice}))


def access(args):
    from selenium.webdriver.support.ui import Select
    with signed_in(args.url) as driver:
        selector = f'li.app[data-app="{args.app}"]'
        card = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, selector), f"{args.app}'s card")
        icons = card.find_elements(By.CSS_SELECTOR, "img.app-icon")
        if icons:
            wait(driver, lambda d: d.execute_script("return arguments[0].complete", icons[0]), "the icon to load")
        before = {
            "name": card.find_element(By.TAG_NAME, "h3").text,
            "identity": card.find_element(By.CSS_SELECTOR, ".identity").text,
            "access": card.find_element(By.CSS_SELECTOR, ".access").text,
            "notes": [n.text for n in card.find_elements(By.CSS_SELECTOR, ".note")],
            "iconWidth": driver.execute_script("return arguments[0].naturalWidth", icons[0]) if icons else 0,
            "menu": card.find_element(By.CSS_SELECTOR, "select").accessible_name,
        }
        shot(driver, args.shots, "apps")
        Select(card.find_element(By.CSS_SELECTOR, "select")).select_by_visible_text(args.choice)
        question = None
        if args.confirm:
            # The page asks before an app loses more than photos: the person reads the question and says yes.
            alert = wait(driver, lambda d: d.switch_to.alert, "the page's question")
            question = alert.text
            alert.accept()
        notice = wait(driver, lambda d: "access changed" in d.find_element(By.ID, "notice").text and d.find_element(By.ID, "notice").text,
                      "the notice")
        # The list is drawn again (after the change, and on the event that follows): read the text, not an element.
        after = wait(driver, lambda d: [t for t in (c.text for c in d.find_elements(By.CSS_SELECTOR, selector + " .access"))
                                        if args.choice in t], "the card to change")[0]
        shot(driver, args.shots, "apps-after")
        print(json.dumps({"before": before, "notice": notice, "after": after, "question": question}))


def shot(driver, directory, name):
    if directory:
        os.makedirs(directory, exist_ok=True)
        driver.save_screenshot(os.path.join(directory, name + ".png"))


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("grant")
    g.add_argument("url")
    g.add_argument("app")
    g.add_argument("names", nargs="+")
    g.add_argument("--shots")
    r = sub.add_parser("sheet")
    r.add_argument("url")
    r.add_argument("choice", choices=["select", "full", "deny", "pick", "leave"])
    r.add_argument("names", nargs="*")
    r.add_argument("--shots")
    r.add_argument("--toggle", action="append", default=[], help="a pick's option to flip under Options, by its words")
    k = sub.add_parser("keys")
    k.add_argument("url")
    k.add_argument("app")
    k.add_argument("album")
    q = sub.add_parser("search")
    q.add_argument("url")
    q.add_argument("app")
    q.add_argument("texts", nargs="+")
    w = sub.add_parser("follow")
    w.add_argument("url")
    w.add_argument("app")
    w.add_argument("words")
    t = sub.add_parser("setting")
    t.add_argument("url")
    t.add_argument("app")
    t.add_argument("label")
    t.add_argument("choice")
    b = sub.add_parser("browse")
    b.add_argument("url")
    b.add_argument("app")
    b.add_argument("album")
    b.add_argument("month")
    b.add_argument("--shots")
    f = sub.add_parser("frame")
    f.add_argument("url")
    v = sub.add_parser("show")
    v.add_argument("url")
    v.add_argument("section", choices=["report", "library"])
    v.add_argument("--shots")
    a = sub.add_parser("access")
    a.add_argument("url")
    a.add_argument("app")
    a.add_argument("choice")
    a.add_argument("--confirm", action="store_true")
    a.add_argument("--shots")
    p = sub.add_parser("probe")
    p.add_argument("url")
    args = parser.parse_args()
    {"grant": grant, "sheet": sheet, "keys": keys, "show": show, "probe": probe, "frame": frame, "follow": follow, "search": search, "access": access, "browse": browse, "setting": setting}[args.command](args)


if __name__ == "__main__":
    main()
