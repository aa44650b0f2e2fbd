"""The line the companion says for each of bleak's reasons Bluetooth is absent
(hardware/dice/ble_link.py ``absent_reason``), for the BLE link's tests and the doctor's, which
say the same words."""

#: bleak's reason -> the companion's words for it
REASONS = {
    "NO_BLUETOOTH": "no Bluetooth adapter",
    "POWERED_OFF": "Bluetooth is switched off",
    "NO_BLE_CENTRAL_ROLE": "the Bluetooth adapter cannot read dice (no Bluetooth LE)",
    "DENIED_BY_SYSTEM": "D-Bus refuses this user access to Bluetooth (is it in the bluetooth "
                        "group?)",
}
