// The new table form: the chosen preset's values as placeholders of the custom boxes, and the
// preset highlighted (a file of its own: the Content-Security-Policy allows no inline script).
(function () {
  "use strict";
  var presetData = document.getElementById("preset-data");
  if (!presetData) return;
  var data = JSON.parse(presetData.textContent);
  var preset = document.getElementById("id_preset");
  var paceInputs = document.querySelectorAll("input[name=pace]");
  var rounds = JSON.parse(document.getElementById("rounds-data").textContent);
  function pace() {
    var checked = document.querySelector("input[name=pace]:checked");
    return checked ? checked.value : "correspondence";
  }
  function show(value) {
    return value === null ? "—" : String(value);
  }
  function update() {
    var p = data.find(function (row) { return row.name === preset.value; });
    if (!p) return;
    var live = pace() === "live";
    var values = {
      start_cash: p.start_cash, turn_seconds: live ? p.turn_seconds : "",
      salary_stops: live ? p.salary_stops : (p.salary_stops === null ? null : rounds.salary_stops_round),
      rent_tax_from: live ? p.rent_tax_from : (p.rent_tax_from === null ? null : rounds.rent_tax_round),
      mortgage_expiry_rounds: p.mortgage_expiry_rounds, builds_per_turn: p.builds_per_turn,
      speed_die_from_round: p.speed_die_from_round, houses_before_hotel: p.houses_before_hotel
    };
    Object.keys(values).forEach(function (name) {
      var input = document.getElementById("id_" + name);
      if (input) input.placeholder = values[name] === "" ? "" : show(values[name]);
    });
    document.getElementById("id_turn_seconds").disabled = !live;
    document.getElementById("id_turn_hours").disabled = live;
    document.querySelectorAll("[data-preset]").forEach(function (li) {
      li.classList.toggle("is-current", li.dataset.preset === p.name);
    });
  }
  preset.addEventListener("change", update);
  paceInputs.forEach(function (input) { input.addEventListener("change", update); });
  update();
})();
