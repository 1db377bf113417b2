/**
 * The explorer page's own scripts, served as files from this origin (the page's CSP allows no
 * inline script). The page's settings come from a JSON block, never from script text.
 */

/** Before the GraphiQL bundle: where its editor's workers are (this origin, not blob: URLs). */
export const EXPLORER_ENV_JS = `'use strict';
(function () {
  var workers = {
    editorWorkerService: '/ui/graphiql-editor.worker.js',
    json: '/ui/graphiql-json.worker.js',
    graphql: '/ui/graphiql-graphql.worker.js',
  };
  self.MonacoEnvironment = {
    globalAPI: false,
    getWorkerUrl: function (_moduleId, label) {
      return workers[label] || workers.editorWorkerService;
    },
  };
})();
`;

/** After the bundle: renders GraphiQL with the settings of #explorer-settings. */
export const EXPLORER_START_JS = `'use strict';
(function () {
  var settings = JSON.parse(document.getElementById('explorer-settings').textContent);
  // Ours (explorer-fetcher.js): it runs what the editor holds, and shows no stack.
  settings.fetcher = self.brainqlExplorer.fetcher;
  // Every visit starts from the README's queries: tabs GraphiQL saved on an earlier visit
  // came back with no active tab and an empty editor. Without saved tabs GraphiQL opens the
  // first default tab, so a query in the URL (an example link of the console's API view) is put first.
  var asked = new URLSearchParams(location.search).get('query');
  if (asked) {
    var tabs = settings.defaultTabs;
    var at = tabs.findIndex(function (t) { return t.query === asked; });
    var tab = at >= 0 ? tabs.splice(at, 1)[0] : { query: asked, headers: settings.headers };
    tabs.unshift(tab);
  }
  try {
    window.localStorage.removeItem('graphiql:tabState');
    window.localStorage.removeItem('graphiql:query');
  } catch (e) {
    // Storage may be disabled; there is then nothing to forget.
  }
  YogaGraphiQL.renderYogaGraphiQL(document.getElementById('root'), settings);
})();
`;
