// Steps through a game recorded in this page: the board picture and the timeline after each event.
// Everything it shows is in the page itself; it asks nothing of the network.
(function () {
  "use strict";
  var byId = function (id) { return document.getElementById(id); };
  var facts = JSON.parse(byId("nk-facts").textContent);
  var frames = null;
  var at = 1;
  var opened = false;  // the address follows the position only once the reader moves
  var timer = null;
  var PLAY_EVERY_MS = 700;

  function decodeFrames() {
    var text = atob(byId("nk-frames").textContent.trim());
    var bytes = new Uint8Array(text.length);
    for (var i = 0; i < text.length; i++) { bytes[i] = text.charCodeAt(i); }
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).text().then(JSON.parse);
  }

  // A picture is put in the page as SVG (its text stays readable by screen readers), with anything
  // that could run or load removed first.
  function safePicture(svgText) {
    var parsed = new DOMParser().parseFromString(svgText, "image/svg+xml");
    var root = parsed.documentElement;
    if (!root || root.nodeName !== "svg") {
      var note = document.createElement("p");
      note.textContent = "This board picture could not be read.";
      return note;
    }
    root.querySelectorAll("script, foreignObject").forEach(function (n) { n.remove(); });
    [root].concat(Array.prototype.slice.call(root.querySelectorAll("*"))).forEach(function (node) {
      Array.prototype.slice.call(node.attributes).forEach(function (attr) {
        var name = attr.name.toLowerCase();
        var link = name === "href" || name === "xlink:href";
        if (name.indexOf("on") === 0 || (link && attr.value.charAt(0) !== "#")) {
          node.removeAttribute(attr.name);
        }
      });
    });
    return document.importNode(root, true);
  }

  // Each picture after the first is its lines' changes from the one before: [i, j] keeps that one's
  // lines i to j-1, a string is a new line. Kept lines are shared, so every picture costs little memory.
  function rebuildPictures(entries) {
    var lines = [];
    return entries.map(function (entry) {
      if (typeof entry === "string") {
        lines = entry.split("\n");
      } else {
        var before = lines;
        lines = [];
        entry.forEach(function (op) {
          if (typeof op === "string") { lines.push(op); return; }
          for (var i = op[0]; i < op[1]; i++) { lines.push(before[i]); }
        });
      }
      return lines;
    });
  }

  function turnOf(number) { return frames.steps[number - 1][1]; }

  function show(number) {
    at = Math.max(1, Math.min(facts.events, number));
    var step = frames.steps[at - 1];
    var board = byId("board");
    if (board.dataset.picture !== String(step[0])) {
      board.replaceChildren(safePicture(frames.pictures[step[0]].join("\n")));
      board.dataset.picture = String(step[0]);
    }
    var turn = turnOf(at);
    var where = turn ? "turn " + turn + " of " + facts.turns.length : "before turn 1";
    byId("position").textContent = "Event " + at + " of " + facts.events + " (" + where + ")";
    byId("status").textContent = "The game: " + frames.statuses[step[2]];
    byId("slider").value = String(at);
    byId("slider").setAttribute("aria-valuetext", "event " + at + " of " + facts.events);
    byId("slider-value").textContent = String(at);
    var old = byId("timeline").querySelector("li.current");
    if (old) { old.classList.remove("current"); old.removeAttribute("aria-current"); }
    var item = byId("timeline").children[at - 1];
    if (item) {
      item.classList.add("current");
      item.setAttribute("aria-current", "step");
      scrollIntoBox(item);
    }
    byId("back").disabled = byId("first").disabled = at === 1;
    byId("forward").disabled = byId("last").disabled = at === facts.events;
    document.body.dataset.event = String(at);
    if (opened) { remember(); }
  }

  // The address says where the reader is (#event=N), so a copied link opens the game there, as a chess
  // site's does; replaced, not pushed, so Back still leaves the page.
  function remember() {
    var address = "#event=" + at;
    if (window.location.hash === address) { return; }
    try {
      history.replaceState(null, "", address);
    } catch (refused) {
      window.location.replace(address);  // a browser that keeps a file's history to itself
    }
  }

  // Scrolls only the timeline's own box, so the page itself stays where the reader put it.
  function scrollIntoBox(item) {
    var box = byId("timeline-box");
    var top = item.offsetTop;
    if (top < box.scrollTop || top + item.offsetHeight > box.scrollTop + box.clientHeight) {
      box.scrollTop = Math.max(0, top - box.clientHeight / 3);
    }
  }

  function setPlaying(playing) {
    var button = byId("play");
    if (timer !== null) { clearInterval(timer); timer = null; }
    if (playing && at < facts.events) {
      timer = setInterval(function () {
        if (at >= facts.events) { setPlaying(false); return; }
        show(at + 1);
      }, PLAY_EVERY_MS);
    }
    var on = timer !== null;
    button.textContent = on ? "Pause" : "Play";  // the button says what a press does
    button.classList.toggle("playing", on);
  }

  function go(number) {
    setPlaying(false);
    byId("jump-message").textContent = "";  // what a link or a jump was told no longer applies
    show(number);
  }

  var MOVES = {
    first: function () { return 1; },
    back: function () { return at - 1; },
    forward: function () { return at + 1; },
    last: function () { return facts.events; }
  };
  var KEYS = { Home: "first", ArrowLeft: "back", ArrowRight: "forward", End: "last" };

  function jumpTo(form, input, target) {
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var message = byId("jump-message");
      // A whole number only: parseInt would read "1e3" as 1 and "2.5" as 2 and go there.
      var text = byId(input).value.trim();
      var wanted = /^[0-9]+$/.test(text) ? Number(text) : NaN;
      var found = target(wanted);
      message.textContent = found.error || "";
      if (!found.error) { go(found.event); }
    });
  }

  function wire() {
    Object.keys(MOVES).forEach(function (name) {
      byId(name).addEventListener("click", function () { go(MOVES[name]()); });
    });
    byId("play").addEventListener("click", function () { setPlaying(timer === null); });
    byId("slider").addEventListener("input", function () { go(parseInt(byId("slider").value, 10)); });
    byId("timeline").addEventListener("click", function (event) {
      var item = event.target.closest("li");
      if (item) { go(parseInt(item.dataset.event, 10)); }
    });
    jumpTo(byId("jump-turn"), "turn-input", function (turn) {
      if (!facts.turns.length) { return { error: "This game has no turns yet." }; }
      if (!(turn >= 1 && turn <= facts.turns.length)) {
        return { error: "This game has turns 1 to " + facts.turns.length + "." };
      }
      return { event: facts.turns[turn - 1] };
    });
    jumpTo(byId("jump-event"), "event-input", function (number) {
      if (!(number >= 1 && number <= facts.events)) {
        return { error: "This game has events 1 to " + facts.events + "." };
      }
      return { event: number };
    });
    document.addEventListener("keydown", function (event) {
      var target = event.target;
      var typing = target && target.tagName === "INPUT" && target.type !== "range";
      if (typing || event.altKey || event.ctrlKey || event.metaKey) { return; }
      if (event.key === " " || event.key === "Spacebar") {
        event.preventDefault();
        setPlaying(timer === null);
      } else if (KEYS[event.key]) {
        event.preventDefault();
        go(MOVES[KEYS[event.key]]());
      }
    });
    // A focused button would also take Space as a click when the key comes up.
    document.addEventListener("keyup", function (event) {
      if (event.key === " " && event.target && event.target.tagName === "BUTTON") { event.preventDefault(); }
    });
  }

  // Where a link opens the game: `#event=N` or `#turn=T` (what stepping writes in the address), or `?at=N`
  // (a play-by-e-mail mail links to the event it tells of). Returns null when the link names no place,
  // else the event and, for a place the game does not have, what is shown instead and why.
  function linked() {
    var fragment = new URLSearchParams(window.location.hash.replace(/^#/, ""));
    var query = new URLSearchParams(window.location.search);
    if (fragment.has("event")) { return eventAt(fragment.get("event"), "#event="); }
    if (fragment.has("turn")) { return turnAt(fragment.get("turn")); }
    if (query.has("at")) { return eventAt(query.get("at"), "?at="); }
    return null;
  }

  function opening() { return facts.ended ? facts.events : 1; }

  function instead(asked, why) {
    var shown = opening();
    return {
      event: shown,
      error: "The link's " + asked.slice(0, 24) + " " + why + "; showing event " + shown + "."
    };
  }

  function eventAt(text, name) {
    var number = /^[0-9]{1,9}$/.test(text) ? Number(text) : NaN;
    if (number > facts.events) {
      return {
        event: facts.events,
        error: "The link's " + name + number + " is past the end (events 1 to " + facts.events +
          "); showing the last event."
      };
    }
    if (!(number >= 1)) { return instead(name + text, "names no event (events 1 to " + facts.events + ")"); }
    return { event: number };
  }

  function turnAt(text) {
    var turn = /^[0-9]{1,9}$/.test(text) ? Number(text) : NaN;
    if (!(turn >= 1 && turn <= facts.turns.length)) {
      var turns = facts.turns.length ? "turns 1 to " + facts.turns.length : "no turns yet";
      return instead("#turn=" + text, "names no turn (" + turns + ")");
    }
    return { event: facts.turns[turn - 1] };
  }

  // Opens where the link says, else a game that has ended at its end and one still going at its start.
  function openAt(found) {
    byId("jump-message").textContent = (found && found.error) || "";
    show(found ? found.event : opening());
  }

  decodeFrames().then(function (decoded) {
    decoded.pictures = rebuildPictures(decoded.pictures);
    frames = decoded;
    wire();
    openAt(linked());
    opened = true;
    window.addEventListener("hashchange", function () {
      var found = linked();  // an address edited by hand: go there, as a link would open it
      if (found && found.event !== at) { setPlaying(false); openAt(found); }
    });
    document.body.dataset.ready = "true";
  }).catch(function (error) {
    byId("board").textContent = "This browser cannot unpack the game's pictures (" + error + ").";
    throw error;
  });
})();
