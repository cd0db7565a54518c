// The course's JupyterLab plugins (jupyter-config/labextensions/): loaded by `make lab` (its student
// configuration names this folder) and on the class hub (make hub installs it in both environments).
// It is plain JavaScript, written as JupyterLab loads a prebuilt extension (a module federation container:
// init(shareScope), and get("./extension") returning the plugins), with no build: JupyterLab's own
// modules (dialogs, toolbar buttons, server requests) come from the share scope JupyterLab hands to init.
(function () {
  "use strict";
  var shareScope = {};

  // JupyterLab's own copy of a shared package (the one its core registered, or else the newest).
  function shared(name) {
    var versions = shareScope[name] || {};
    var keys = Object.keys(versions);
    if (!keys.length) {
      return Promise.reject(new Error(name + " is not shared by this JupyterLab"));
    }
    var core = keys.filter(function (v) { return versions[v].from === "@jupyterlab/application-top"; });
    var key = core.length ? core[0] : keys.sort().pop();
    return Promise.resolve(versions[key].get()).then(function (factory) { return factory(); });
  }

  // nbgrader's Assignments tab links "(view feedback)" to the feedback's folder, and its click only moves
  // the file browser there: the page then needs a double-click. This opens each page of that folder too,
  // in JupyterLab's HTML viewer (sandboxed: the page is inert text anyway).
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
    id: "autograd-course:feedback-in-one-click",
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
          .catch(function (error) { console.error("autograd-course: cannot open the feedback", error); });
      });
    }
  };

  // Validate, in place of nbgrader's button where the configuration turns its plugin off (the students'): the same
  // server address, whose answer carries the course's summary (course/validation.py): whether the core
  // passed, what to fix, which optional sections remain. Shown as text; `backticks` as code.
  function textWithCode(text) {
    var paragraph = document.createDocumentFragment();
    String(text).split("`").forEach(function (part, i, parts) {
      if (i % 2 && parts.length % 2) {
        var code = document.createElement("code");
        code.textContent = part;
        paragraph.appendChild(code);
      } else {
        paragraph.appendChild(document.createTextNode((i % 2 ? "`" : "") + part));
      }
    });
    return paragraph;
  }

  function resultNode(answer) {
    var node = document.createElement("div");
    node.className = "autograd-course-validation";
    var value = answer && answer.success ? answer.value || {} : null;
    var blocks = value && value.summary ? value.summary
      : [{ text: "Validate could not check this notebook.", items: [String(answer && answer.value || "")] }];
    blocks.forEach(function (block) {
      var paragraph = document.createElement("p");
      paragraph.appendChild(textWithCode(block.text));
      node.appendChild(paragraph);
      if (block.items && block.items.length) {
        var list = document.createElement("ul");
        block.items.forEach(function (item) {
          var entry = document.createElement("li");
          entry.appendChild(textWithCode(item));
          list.appendChild(entry);
        });
        node.appendChild(list);
      }
    });
    return node;
  }

  // Validates the notebook at `path` (relative to the server's root) and shows what the server said.
  function validatePath(path, ui) {
    var settings = ui.services.ServerConnection.makeSettings();
    var url = settings.baseUrl.replace(/\/?$/, "/") + "assignments/validate";
    return ui.services.ServerConnection.makeRequest(url, { method: "POST", body: JSON.stringify({ path: path }) },
                                                    settings)
      .then(function (response) { return response.json(); })
      .catch(function (error) { return { success: false, value: String(error) }; })
      .then(function (answer) {
        var body = new ui.widgets.Widget({ node: resultNode(answer) });
        ui.apputils.showDialog({
          title: "Validation Results", body: body, buttons: [ui.apputils.Dialog.okButton({ label: "Ok" })]
        });
      });
  }

  function busy(control, label, yes) {
    if (control) { yes ? control.setAttribute("disabled", "disabled") : control.removeAttribute("disabled"); }
    if (label) { label.textContent = yes ? "Validating..." : "Validate"; }
  }

  function validate(panel, button, ui) {
    var control = button.node.querySelector("jp-button, button");
    var label = button.node.querySelector(".jp-ToolbarButtonComponent-label");
    busy(control, label, true);
    return panel.context.save()
      .then(function () { return validatePath(panel.context.path, ui); })
      .catch(function (error) { console.error("autograd-course: cannot validate", error); })
      .then(function () { busy(control, label, false); });
  }

  // nbgrader's Assignments tab has a Validate button for each fetched notebook, which shows nbgrader's own
  // list of failed cells: its click is taken first (capture) and answered as the toolbar's, for the notebook
  // whose path nbgrader's assignment list gives.
  function notebookPath(ui, course, assignment, notebook) {
    var settings = ui.services.ServerConnection.makeSettings();
    var url = settings.baseUrl.replace(/\/?$/, "/") + "assignments?course_id=" + encodeURIComponent(course);
    return ui.services.ServerConnection.makeRequest(url, {}, settings)
      .then(function (response) { return response.json(); })
      .then(function (answer) {
        var found = (answer.value || []).filter(function (a) {
          return a.status === "fetched" && a.assignment_id === assignment;
        });
        var notebooks = found.length ? found[0].notebooks || [] : [];
        var match = notebooks.filter(function (n) { return n.notebook_id === notebook; });
        if (!match.length) { throw new Error("no fetched notebook " + assignment + "/" + notebook); }
        return match[0].path;
      });
  }

  function takeAssignmentListValidate(ui) {
    document.addEventListener("click", function (event) {
      var button = event.target.closest && event.target.closest("#fetched_assignments_list .nested_list_item button");
      if (!button || button.textContent.trim() !== "Validate") {
        return;
      }
      event.stopPropagation();
      event.preventDefault();
      var row = button.closest(".nested_list_item");
      var parent = row.parentElement.closest(".list_item");
      var notebook = row.querySelector(".item_name a").textContent.trim();
      var assignment = parent.querySelector(".item_name a").textContent.trim();
      var course = (parent.querySelector(".item_course") || {}).textContent || "";
      busy(button, button, true);
      notebookPath(ui, course.trim(), assignment, notebook)
        .then(function (path) { return validatePath(path, ui); })
        .catch(function (error) { console.error("autograd-course: cannot validate", error); })
        .then(function () { busy(button, button, false); });
    }, true);
  }

  var NBGRADER_VALIDATE = "@jupyter/nbgrader:validate-assignment";

  var validateButton = {
    id: "autograd-course:validate",
    description: "The notebook's Validate button: says whether the core passed and which optional parts remain.",
    autoStart: true,
    activate: function (app) {
      return Promise.all([shared("@jupyterlab/apputils"), shared("@lumino/widgets"),
                          shared("@jupyterlab/services"), shared("@jupyterlab/coreutils")]).then(function (modules) {
        var ui = { apputils: modules[0], widgets: modules[1], services: modules[2] };
        if (!modules[3].PageConfig.Extension.isDisabled(NBGRADER_VALIDATE)) {
          return;  // nbgrader's own Validate is on (the instructor's JupyterLab): one button, nbgrader's
        }
        takeAssignmentListValidate(ui);
        app.docRegistry.addWidgetExtension("Notebook", {
          createNew: function (panel) {
            var button = new ui.apputils.ToolbarButton({
              className: "validate-button",
              label: "Validate",
              tooltip: "Validate: run the notebook and say whether the core passed and what remains",
              onClick: function () { validate(panel, button, ui); }
            });
            var index = 0;
            var items = Array.from(panel.toolbar.children());
            while (index < items.length && !items[index].node.classList.contains("jp-Toolbar-spacer")) {
              index++;
            }
            panel.toolbar.insertItem(index, "validate", button);
            return button;
          }
        });
      });
    }
  };

  var containers = (window._JUPYTERLAB = window._JUPYTERLAB || {});
  containers["autograd-course"] = {
    init: function (scope) { shareScope = scope || {}; return Promise.resolve(); },
    get: function () {
      return Promise.resolve(function () {
        return { __esModule: true, default: [feedbackInOneClick, validateButton] };
      });
    }
  };
})();
