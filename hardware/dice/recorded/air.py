"""What else a scan hears, and what bleak raises when a machine has no Bluetooth to use.

* Nordic UART boards advertise the Nordic UART service ``6e400001-...``, the same id a legacy
  Pixels and a GoDice use. pixels-js lists a legacy-service device only with a Pixels'
  manufacturer and service data, or the 7-byte advert from before July 2022
  (``getScannedPixel.ts``); GoDice are told by their name ("GoDice" in it, as the GoDice
  Python API's ``demo.py`` ``filter_godice_devices`` does).
* A Pixels charger advertises its own service ``a8b90001-...`` (``PixelsBluetoothIds.charger``).
* bleak 3.1.0 (``bleak/backends/bluezdbus/manager.py``): no adapter, no LE adapter, adapter
  off and D-Bus refusing the user each raise ``BleakBluetoothNotAvailableError`` with a
  reason; with no system bus at all (no ``/run/dbus/system_bus_socket``) it is a bare
  ``FileNotFoundError(2, 'No such file or directory')`` with no file name, as heard on this
  machine (a container without D-Bus) by ``BleakScanner.discover`` and ``BleakClient.connect``;
  D-Bus refusing a call (BlueZ policy) is a ``BleakDBusError`` named
  ``org.freedesktop.DBus.Error.AccessDenied``; dbus_fast's ``auth.py`` words the refused login.
"""

from __future__ import annotations

from . import AdvertVector, Source, hx
from .godice import PY_SDK, PY_SDK_AT
from .pixels import ADVERT, LEGACY_SERVICE, PIXELS_JS, PIXELS_JS_AT

NORDIC_UART = LEGACY_SERVICE
CHARGER_SERVICE = "a8b90001-8d5e-4411-bd7a-cb49359d1f05"
IDS = Source(PIXELS_JS, "packages/pixels-core-connect/src/PixelsBluetoothIds.ts", PIXELS_JS_AT,
             "charger, legacyDie")
GODICE_NAMES = Source(PY_SDK, "godice/demo.py", PY_SDK_AT, "filter_godice_devices")

#: not dice: never listed
NOT_DICE = [
    AdvertVector("Bluefruit52", "Bluefruit52", (NORDIC_UART,), {}, {}, None, ADVERT),
    AdvertVector("a Nordic UART board with its own data", "nRF UART", (NORDIC_UART,),
                 {0x0059: hx("01 02")}, {}, None, ADVERT),
    AdvertVector("Pixels charger", "Pixels Charger", (CHARGER_SERVICE,),
                 {0x0D39: hx("01 00 50")}, {}, None, IDS),
]
#: GoDice adverts: the name says it; no manufacturer data is read
GODICE_ADVERTS = [
    AdvertVector("GoDice", "GoDice_C4F1A2_R_v04", (NORDIC_UART,), {}, {},
                 {"make": "godice", "colour": "red"}, GODICE_NAMES),
]

#: (what bleak raised, the line the companion shows)
NO_SYSTEM_BUS = FileNotFoundError(2, "No such file or directory")
BLEAK_MESSAGES = {
    "NO_BLUETOOTH": "No Bluetooth adapters found.",
    "NO_BLE_CENTRAL_ROLE": "No Bluetooth adapters with BLE 'central' role found.",
    "POWERED_OFF": "No powered Bluetooth adapters found. Turn on Bluetooth and try again.",
    "DENIED_BY_SYSTEM": "authentication failed: REJECTED: ['EXTERNAL']",
}


def bleak_error(reason: str) -> Exception:
    """The exception bleak raises for ``reason`` (a BleakBluetoothNotAvailableReason name)."""
    from bleak.exc import BleakBluetoothNotAvailableError, BleakBluetoothNotAvailableReason

    return BleakBluetoothNotAvailableError(BLEAK_MESSAGES[reason],
                                           BleakBluetoothNotAvailableReason[reason])
