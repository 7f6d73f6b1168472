#!/usr/bin/env bash
# Install the Table Assistant as a service on Raspberry Pi OS (Bookworm or later).
#
#   sudo bash systemd/install-pi.sh            # or: sudo make install-pi
#   bash systemd/install-pi.sh --dry-run       # print every step, change nothing
#   bash systemd/install-pi.sh --root DIR      # place the files under DIR only (tests, image builds):
#                                              # commands that need the live system are printed, not run
#
# Idempotent: run it again after `git pull` to update; files that did not change are left alone, the
# owner's /etc/tableassist/config.toml is never overwritten, and a running game is not restarted.
set -euo pipefail

SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PREFIX=/opt/tableassist
VENV="$PREFIX/venv"
SERVICE_USER=tableassist
# serial (RFID), camera + display, GPIO, sound, GPU render node, touchscreen: the unit's SupplementaryGroups.
SERVICE_GROUPS=(dialout video gpio audio render input)
UNITS=(tableassist.service tableassist-backup.service tableassist-backup.timer)
UDEV_RULE=99-tableassist-rfid.rules
# python3-lgpio: gpiozero's pin factory on Bookworm (the venv sees it through --system-site-packages);
# espeak-ng: the voice; libgl/libegl/libgles/libgbm/libdrm: Kivy's SDL2 window on KMS/DRM; sqlite3: restores.
APT_PACKAGES=(python3 python3-venv python3-pip python3-lgpio espeak-ng alsa-utils libgl1 libegl1 libgles2
              libgbm1 libdrm2 libmtdev1 sqlite3)

DRY_RUN=0
ROOT=""

usage() {
  sed -n '2,10s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
}

while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) DRY_RUN=1 ;;
    --root)
      [ $# -ge 2 ] || { echo "install-pi.sh: --root needs a directory" >&2; exit 2; }
      ROOT="$2"; shift ;;
    --root=*) ROOT="${1#--root=}" ;;
    -h|--help) usage; exit 0 ;;
    *) echo "install-pi.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done

if [ -n "$ROOT" ]; then
  [ -d "$ROOT" ] || { echo "install-pi.sh: --root $ROOT is not a directory" >&2; exit 2; }
  ROOT="$(cd "$ROOT" && pwd)"
fi
if [ "$DRY_RUN" = 0 ] && [ -z "$ROOT" ] && [ "$(id -u)" != 0 ]; then
  echo "install-pi.sh: run as root (sudo make install-pi), or with --dry-run to see the steps" >&2
  exit 2
fi

CHANGED=0

# A command on the live system: run it, or say it would be run (--dry-run), or that --root skips it.
step() {
  local shown="" arg
  for arg in "$@"; do
    # Shell-quoted only where needed, so the printed line can be pasted and still reads like a command.
    if [[ "$arg" =~ ^[A-Za-z0-9_./:=,+@%-]+$ ]]; then shown+="$arg "; else shown+="$(printf '%q' "$arg") "; fi
  done
  shown="${shown% }"
  if [ "$DRY_RUN" = 1 ]; then
    echo "would run: $shown"
  elif [ -n "$ROOT" ]; then
    echo "skipped (--root): $shown"
  else
    echo "+ $shown"
    "$@"
  fi
}

# Place one file if its content or mode differs; report new / changed / unchanged.
place() {
  local from="$1" to="$ROOT$2" mode="$3" state
  if [ ! -e "$to" ]; then
    state=new
  elif cmp -s "$from" "$to" && [ "$(stat -c %a "$to")" = "$mode" ]; then
    echo "unchanged: $2"
    return 0
  else
    state=changed
  fi
  if [ "$DRY_RUN" = 1 ]; then
    echo "would install ($state): $2 from ${from#"$SRC"/}"
    return 0
  fi
  install -D -m "$mode" "$from" "$to"
  echo "installed ($state): $2"
  CHANGED=1
}

# Place a file only if there is none: the owner's own edits win.
place_once() {
  local from="$1" to="$ROOT$2" mode="$3"
  if [ -e "$to" ]; then
    echo "kept (owner's file): $2"
  elif [ "$DRY_RUN" = 1 ]; then
    echo "would install (new): $2 from ${from#"$SRC"/}"
  else
    install -D -m "$mode" "$from" "$to"
    echo "installed (new): $2"
    CHANGED=1
  fi
}

echo "== Table Assistant: installing from $SRC${ROOT:+ into $ROOT}$([ "$DRY_RUN" = 1 ] && echo ' (dry run)')"

echo "-- Debian packages"
missing=()
for package in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ -n "$ROOT" ] || [ ${#missing[@]} -gt 0 ]; then
  # Under --root the host's packages say nothing about the target's: list them all.
  wanted=("${missing[@]}")
  [ -n "$ROOT" ] && wanted=("${APT_PACKAGES[@]}")
  step apt-get update -qq
  step env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${wanted[@]}"
else
  echo "all present: ${APT_PACKAGES[*]}"
fi

echo "-- user '$SERVICE_USER' and its groups"
for group in "${SERVICE_GROUPS[@]}"; do
  # Raspberry Pi OS has them all; elsewhere 'gpio' may be missing, and a missing SupplementaryGroups= group
  # stops the service from starting at all.
  if [ -n "$ROOT" ] || ! getent group "$group" >/dev/null; then
    step groupadd --system -f "$group"
  fi
done
if [ -n "$ROOT" ] || ! id -u "$SERVICE_USER" >/dev/null 2>&1; then
  step useradd --system --user-group --home-dir /var/lib/tableassist --no-create-home \
    --shell /usr/sbin/nologin --comment "Table Assistant" "$SERVICE_USER"
fi
groups_csv="$(IFS=,; echo "${SERVICE_GROUPS[*]}")"
# usermod -a only adds; running it again changes nothing (it is here for `sudo tableassist-admin doctor`).
step usermod --append --groups "$groups_csv" "$SERVICE_USER"
# systemd creates the state directory at the first start; made here too, so tableassist-admin works before that.
step install -d -o "$SERVICE_USER" -g "$SERVICE_USER" -m 0750 /var/lib/tableassist
# systemd never chowns a ConfigurationDirectory=; the app writes its stock-yard calibration there.
step install -d -o "$SERVICE_USER" -g "$SERVICE_USER" -m 0755 /etc/tableassist

echo "-- Python environment in $VENV"
if [ -n "$ROOT" ] || [ ! -x "$VENV/bin/python" ]; then
  # --system-site-packages: python3-lgpio from apt is the GPIO backend gpiozero uses on Bookworm.
  step python3 -m venv --system-site-packages "$VENV"
fi
# A copy, not an editable install: the service cannot see /home (ProtectHome=yes), and updates are explicit.
step "$VENV/bin/pip" install --quiet --disable-pip-version-check --upgrade "$SRC"

echo "-- files"
for unit in "${UNITS[@]}"; do
  place "$SRC/systemd/$unit" "/etc/systemd/system/$unit" 644
done
place "$SRC/systemd/$UDEV_RULE" "/etc/udev/rules.d/$UDEV_RULE" 644
place "$SRC/systemd/README.md" "$PREFIX/share/README.md" 644
place "$SRC/systemd/tableassist-admin" /usr/local/bin/tableassist-admin 755
place_once "$SRC/tableassist/data/config.sample.toml" /etc/tableassist/config.toml 644

echo "-- systemd and udev"
step udevadm control --reload-rules
step udevadm trigger --subsystem-match=tty --action=add
step systemctl daemon-reload
step systemctl enable --now tableassist-backup.timer
# enable --now starts the app if it is not running; a running game is left alone (restart it yourself).
step systemctl enable --now tableassist.service

if [ "$DRY_RUN" = 1 ]; then
  echo "== dry run: nothing was changed"
elif [ "$CHANGED" = 0 ]; then
  echo "== done: no file changed"
else
  echo "== done: files changed; if a game is running, 'sudo systemctl restart tableassist' picks them up"
fi
