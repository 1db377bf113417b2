/**
 * The explorer's fetcher, served as /ui/explorer-fetcher.js (plain ES2017: no bundler).
 *
 * Why not GraphiQL's own: it sends the operation name GraphiQL last parsed out of the editor,
 * which lags the editor by a debounce, so text replaced and run at once (or an anonymous query
 * over a named example) went out with the old name; the bundled client then refused it
 * ("Cannot infer operation NewestSessions") and GraphiQL printed that exception's stack. This
 * one names only an operation the sent text defines (else the server picks the single
 * operation, or says why it cannot), sends subscriptions to the SSE route (graphql-sse,
 * distinct connections) and every other operation as a POST to /graphql, and turns every
 * failure into `{ errors: [{ message }] }`: no stack is ever shown.
 */
export const EXPLORER_FETCHER_JS = `'use strict';
(function () {
  var NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
  var KEYWORD = /^(query|mutation|subscription|fragment)\\b\\s*([_A-Za-z][_0-9A-Za-z]*)?/;

  /** The operations a document defines, in order: { type, name } (name null when anonymous). */
  function operationsOf(text) {
    // Strings and comments hold no definitions (and may hold braces).
    var plain = text.replace(/"""[\\s\\S]*?(?:"""|$)|"(?:\\\\.|[^"\\\\\\n])*"?|#[^\\n]*/g, ' ');
    var ops = [];
    var depth = 0;
    var parens = 0; // braces inside (...) are input objects, not selection sets
    var pending = false; // a keyword was read; the next top-level brace is its selection set
    for (var i = 0; i < plain.length; i++) {
      var c = plain[i];
      if (c === '(') {
        parens++;
      } else if (c === ')') {
        parens = Math.max(0, parens - 1);
      } else if (parens > 0) {
        continue;
      } else if (c === '{') {
        if (depth === 0 && !pending) ops.push({ type: 'query', name: null });
        depth++;
        pending = false;
      } else if (c === '}') {
        depth = Math.max(0, depth - 1);
      } else if (depth === 0 && /[a-z]/.test(c) && (i === 0 || !/[_0-9A-Za-z]/.test(plain[i - 1]))) {
        var m = KEYWORD.exec(plain.slice(i, i + 300));
        if (m) {
          if (m[1] !== 'fragment') ops.push({ type: m[1], name: m[2] || null });
          pending = true;
          i += m[0].length - 1;
        }
      }
    }
    return ops;
  }

  /** The operation to run: the named one if the text defines it, else the only one. */
  function chosen(text, operationName) {
    var ops = operationsOf(text);
    var named = ops.filter(function (o) { return o.name && o.name === operationName; })[0];
    if (named) return named;
    return ops.length === 1 ? ops[0] : { type: 'query', name: null };
  }

  function failure(message) {
    return { errors: [{ message: message }] };
  }

  function headersOf(opts, accept) {
    var h = { 'Content-Type': 'application/json', Accept: accept };
    var extra = (opts && opts.headers) || {};
    Object.keys(extra).forEach(function (k) { h[k] = String(extra[k]); });
    return h;
  }

  function post(url, body, opts, accept, signal) {
    return fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: headersOf(opts, accept),
      body: JSON.stringify(body),
      signal: signal,
    });
  }

  /** Reads a text/event-stream answer, handing each "next" event's JSON to onNext. */
  async function readEvents(response, onNext) {
    var reader = response.body.getReader();
    var decoder = new TextDecoder();
    var buffered = '';
    for (;;) {
      var part = await reader.read();
      if (part.done) return;
      buffered += decoder.decode(part.value, { stream: true }).replace(/\\r\\n?/g, '\\n');
      var end;
      while ((end = buffered.indexOf('\\n\\n')) >= 0) {
        var block = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        var event = 'message';
        var data = [];
        block.split('\\n').forEach(function (line) {
          if (line.indexOf('event:') === 0) event = line.slice(6).trim();
          else if (line.indexOf('data:') === 0) data.push(line.slice(5).replace(/^ /, ''));
        });
        if (event === 'complete') return;
        if (event === 'next' && data.length > 0) onNext(JSON.parse(data.join('\\n')));
      }
    }
  }

  function subscribe(body, opts) {
    return {
      subscribe: function (observer) {
        var abort = new AbortController();
        post('/graphql/stream', body, opts, 'text/event-stream', abort.signal)
          .then(function (r) {
            var type = r.headers.get('Content-Type') || '';
            if (type.indexOf('text/event-stream') !== 0) {
              return r.json().then(function (answer) { observer.next(answer); });
            }
            return readEvents(r, function (answer) { observer.next(answer); });
          })
          .then(
            function () { observer.complete(); },
            function (e) {
              if (abort.signal.aborted) return;
              observer.next(failure('The subscription failed: ' + (e && e.message)));
              observer.complete();
            },
          );
        return { unsubscribe: function () { abort.abort(); } };
      },
    };
  }

  function fetcher(params, opts) {
    var op = chosen(params.query || '', params.operationName);
    var body = { query: params.query, variables: params.variables || undefined };
    if (op.name && NAME.test(op.name)) body.operationName = op.name;
    if (op.type === 'subscription') return subscribe(body, opts);
    return post('/graphql', body, opts, 'application/graphql-response+json, application/json')
      .then(function (r) {
        return r.json().catch(function () {
          return failure('The server answered HTTP ' + r.status + ' without a JSON body.');
        });
      })
      .catch(function (e) { return failure('The request failed: ' + (e && e.message)); });
  }

  self.brainqlExplorer = { fetcher: fetcher, operationsOf: operationsOf, chosen: chosen };
})();
`;
