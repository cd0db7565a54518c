// The class hub's JupyterLab plugin (hub/labextension/, installed into the hub's environments by make hub).
// nbgrader's Assignments tab links "(view feedback)" to the feedback's folder, and its click only moves
// the file browser there: the page then needs a double-click. This opens each page of that folder too,
// in JupyterLab's HTML viewer (sandboxed: the page is inert text anyway).
// It is plain JavaScript with no dependencies, so it is written as JupyterLab loads a prebuilt extension
// (a module federation container: init, and get("./extension") returning the plugins), with no build.
(function () {
  "use strict";
  var FEEDBACK_FOLDER = /(^|\/)feedback\/[^\/]+\/?$/;

  function openFeedbackPages(app, folder) {
    return app.serviceManager.contents.get(folder, { content: true }).then(function (listing) {
      listing.content
        .filter(function (item) { return item.type === "file" && /\.html$/.test(item.name); })
        .forEach(function (item) {
          app.commands.execute("docmanager:open", { path: item.path, factory: "HTML Viewer" });
        });
    });
  }

  var feedbackInOneClick = {
    id: "autograd-course-hub:feedback-in-one-click",
    description: "Opens a fetched feedback page when its link in the Assignments tab is clicked.",
    autoStart: true,
    activate: function (app) {
      app.commands.commandExecuted.connect(function (_, executed) {
        var path = String((executed.args && executed.args.path) || "");
        if (executed.id !== "filebrowser:go-to-path" || !FEEDBACK_FOLDER.test(path)) {
          return;
        }
        Promise.resolve(executed.result)
          .then(function () { return openFeedbackPages(app, path.replace(/\/$/, "")); })
          .catch(function (error) { console.error("autograd-course-hub: cannot open the feedback", error); });
      });
    }
  };

  var containers = (window._JUPYTERLAB = window._JUPYTERLAB || {});
  containers["autograd-course-hub"] = {
    init: function () { return Promise.resolve(); },
    get: function () {
      return Promise.resolve(function () { return { __esModule: true, default: [feedbackInOneClick] }; });
    }
  };
})();
