# Every target sets itself up from a fresh clone: Debian packages (when missing), then the venv.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
APT_STAMP := $(VENV)/.apt-checked
# Xvfb for the Kivy screens, espeak-ng/sox for voice, GL/mtdev for Kivy's SDL2 window, systemd for unit checks.
APT_PACKAGES := xvfb xauth espeak-ng sox libgl1 libegl1 libgles2 libmtdev1 systemd
DEMO_OUT ?= demo-out

.PHONY: setup test lint typecheck pytest demo run bench clean install-pi cubenet

setup: $(STAMP)

$(APT_STAMP):
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi
	@mkdir -p $(VENV) && touch $@

$(STAMP): pyproject.toml $(APT_STAMP)
	@test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	@# Byte-compiled once here, as pip does for what it installs: with PYTHONDONTWRITEBYTECODE set (CI, some
	@# shells) every `tableassist` call would otherwise compile its sources again, a third of a second.
	$(PY) -m compileall -q tableassist hardware calibration ui >/dev/null
	@touch $@

lint: setup
	$(BIN)/ruff check .

typecheck: setup
	$(BIN)/mypy

pytest: setup
	$(eval XVFB := $(shell command -v xvfb-run >/dev/null 2>&1 && echo "xvfb-run -a -s '-screen 0 1280x800x24'"))
	$(XVFB) $(BIN)/pytest

test: lint typecheck pytest

demo: setup
	$(eval XVFB := $(shell command -v xvfb-run >/dev/null 2>&1 && echo "xvfb-run -a -s '-screen 0 1280x800x24'"))
	$(XVFB) $(BIN)/tableassist demo --out $(DEMO_OUT)

run: setup
	$(BIN)/tableassist run --simulate

# Retrain the stock-yard reader's cube net from generated scenes (about an hour and a half on two cores: half an
# hour writing the scenes, then two training cycles of about half an hour, the second from the first at a third of
# its rate), then the net in 8 bits for the reader (seconds).
# PyTorch is needed only here, so it is installed only here.
CUBENET_DATA ?= /tmp/cubenet-data
cubenet: setup
	$(PY) -m pip install -q torch==2.13.0 onnx
	$(PY) -m tests.vision.cubenet_training.data $(CUBENET_DATA) --skip 5000 --part 1/2 & first=$$!; \
	  $(PY) -m tests.vision.cubenet_training.data $(CUBENET_DATA) --skip 5000 --part 2/2 && wait $$first
	$(PY) -m tests.vision.cubenet_training.train $(CUBENET_DATA) --steps 20000 --out $(CUBENET_DATA)/first.onnx
	$(PY) -m tests.vision.cubenet_training.train $(CUBENET_DATA) --start $(CUBENET_DATA)/first.onnx \
	  --steps 20000 --rate 1e-3 --out $(CUBENET_DATA)/second.onnx
	$(PY) -m tests.vision.cubenet_training.data $(CUBENET_DATA) --main 0 --alt 0 --indep 0 --blind 0 --third 0 \
	  --lamp 1200 --skip 5000
	$(PY) -m tests.vision.cubenet_training.train $(CUBENET_DATA) --start $(CUBENET_DATA)/second.onnx \
	  --steps 16000 --rate 1e-3 --out $(CUBENET_DATA)/lamp.onnx
	$(PY) -m tests.vision.cubenet_training.average $(CUBENET_DATA)/second.onnx $(CUBENET_DATA)/lamp.onnx \
	  --out tests/vision/cubenet_training/cubenet.onnx
	$(PY) -m tests.vision.cubenet_training.quantise $(CUBENET_DATA) tests/vision/cubenet_training/cubenet.onnx \
	  --out hardware/stockyard/cubenet.onnx

bench: setup
	@for f in tests/bench/bench_*.py; do echo "== $$f"; $(PY) $$f || exit 1; done

clean:
	rm -rf $(VENV) $(DEMO_OUT) .mypy_cache .ruff_cache .pytest_cache

# On a Raspberry Pi: sudo make install-pi (see systemd/README.md). ARGS=--dry-run prints every step;
# ARGS="--root DIR" writes the files under DIR only.
install-pi:
	bash systemd/install-pi.sh $(ARGS)
