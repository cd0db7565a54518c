# Two entry points: `make lab` (take the course) and `make test` (prove it works).
# Both set up .venv from requirements-lock.txt first; torch is installed on its own, first,
# so that nothing else can pull a multi-GB CUDA build.
VENV   ?= .venv
PYTHON ?= python3
BIN    := $(VENV)/bin
PORT   ?= 8888

.PHONY: setup release lab test browser-deps clean

setup: $(VENV)/.installed

$(VENV)/.installed: requirements-lock.txt pyproject.toml course/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet torch==2.13.0
	$(BIN)/python -m pip install --quiet --no-deps -r requirements-lock.txt
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e ./course -e .
	touch $@

release: setup
	$(BIN)/autograd-course release

# Students work in workspace/, a copy of release/ that is never overwritten: release/ stays
# exactly what nbgrader generated, and answers survive a `git pull` or a new release.
WORKSPACE ?= workspace

# Each JupyterLab puts its folder of jupyter-config/ first on Jupyter's config path, for this
# command only: the student's hides nbgrader's instructor tools (Validate stays), the instructor's
# keeps them and rewrites a lesson script when its source notebook is saved. ~/.jupyter is untouched.
LAB_CONFIG = JUPYTER_CONFIG_PATH=$(CURDIR)/jupyter-config/$(1)$${JUPYTER_CONFIG_PATH:+:$$JUPYTER_CONFIG_PATH}
LAB_OPTIONS = --ServerApp.ip=127.0.0.1 --ServerApp.port=$(PORT) --no-browser $$([ "$$(id -u)" = 0 ] && echo --allow-root)

lab: release
	@for f in release/*/*; do d="$(WORKSPACE)/$${f#release/}"; \
	  [ -e "$$d" ] || { mkdir -p "$$(dirname "$$d")"; cp "$$f" "$$d"; echo "new in $(WORKSPACE)/: $${f#release/}"; }; done
	cd $(WORKSPACE) && $(call LAB_CONFIG,student) $(CURDIR)/$(BIN)/jupyter lab $(LAB_OPTIONS)

# The instructor's JupyterLab on the repository root: Formgrader, Create Assignment, and lesson
# scripts kept in step with the source notebooks edited here.
.PHONY: instructor-lab
instructor-lab: setup
	$(call LAB_CONFIG,instructor) $(BIN)/jupyter lab $(LAB_OPTIONS)

# The class hub (hub/, docs/hub.md), as root (sudo or a root shell): the students' and the instructor's
# environments built under HUB_PREFIX from the system's Python (only what changed, hub/hub_environments.py),
# the pinned proxy from npm, the accounts, the exchange, the instructor's course directory and the checks
# (hub/classroom.py), then JupyterHub in the foreground (Ctrl-C stops it). It needs no .venv.
HUB_STATE  ?= $(CURDIR)/hub/state
HUB_PREFIX ?= /opt/autograd-course
HUB_PYTHON ?= /usr/bin/python3.11
HUB_BIN     = $(HUB_PREFIX)/instructor-env/bin
.PHONY: hub hub-root hub-envs
hub: hub-root hub/node_modules/.installed hub-envs
	AUTOGRAD_HUB_PREFIX=$(HUB_PREFIX) AUTOGRAD_HUB_STATE=$(HUB_STATE) $(HUB_BIN)/python hub/classroom.py
	mkdir -p $(HUB_STATE) && cd $(HUB_STATE) && AUTOGRAD_HUB_PREFIX=$(HUB_PREFIX) AUTOGRAD_HUB_STATE=$(HUB_STATE) \
	  $(HUB_BIN)/jupyterhub -f $(CURDIR)/hub/jupyterhub_config.py

hub-root:
	@[ "$$(id -u)" = 0 ] || { echo "make hub: run it as root (sudo make hub): each user's server is started as that user"; exit 1; }

hub-envs:
	$(HUB_PYTHON) hub/hub_environments.py $(HUB_PREFIX)

# The hub tests run `make hub` in a fresh clone, which installs the proxy there with npm (.ci/run
# installs npm when it is missing); without npm they skip.
.PHONY: hub-deps
hub-deps:
	@command -v npm >/dev/null 2>&1 || echo "The class hub tests need npm (apt-get install npm) for the hub's proxy: they will skip"

hub/node_modules/.installed: hub/package.json hub/package-lock.json
	cd hub && npm ci --no-audit --no-fund --loglevel=error
	touch $@

# The accessibility tests (tests/browser/test_accessibility.py) inject axe-core, pinned, from
# tests/browser/axe/ (npm ci); without npm they skip, as the hub tests do.
AXE = tests/browser/axe
.PHONY: axe-deps
axe-deps:
	@if command -v npm >/dev/null 2>&1; then $(MAKE) --no-print-directory $(AXE)/node_modules/.installed; \
	else echo "The accessibility tests need npm (apt-get install npm) for axe-core: they will skip"; fi

$(AXE)/node_modules/.installed: $(AXE)/package.json $(AXE)/package-lock.json
	cd $(AXE) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

# The browser test drives Debian's Chromium; install it when it is missing and we may.
browser-deps:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -q && apt-get install -y -q chromium; \
	  else echo "The browser test needs Chromium: sudo apt-get install -y chromium"; exit 1; fi; }

test: setup browser-deps hub-deps axe-deps
	$(BIN)/pytest --nbval -n auto --dist loadfile --no-loadscope-reorder --durations=25

clean:
	rm -rf $(VENV) submitted autograded feedback gradebook.db test-artifacts grades.csv
