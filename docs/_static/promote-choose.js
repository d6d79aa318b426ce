// The "side by side" page: look up every policy's answer for the chosen dtypes in the answers
// promote wrote at build time (window.promoteAnswers, from promote-answers.js). No computing
// here: a pair or triple of a policy's own types is one lookup; a type the policy lacks is
// refused, as promote refuses the first such operand.
(function () {
  "use strict";
  const data = window.promoteAnswers;
  const select = ["a", "b", "c"].map((k) => document.getElementById("promote-" + k));
  const body = document.querySelector("#promote-answers tbody");

  function digit(grid, i) {
    let n = 0;
    for (let k = 0; k < grid.width; k++) {
      n = n * data.digits.length + data.digits.indexOf(grid.grid[i * grid.width + k]);
    }
    return grid.answers[n];
  }

  function answer(policy, chosen) {
    const lacking = chosen.find((t) => String(t) in policy.lacks);
    if (lacking !== undefined) return policy.pairs.answers[policy.lacks[lacking]];
    const n = policy.types.length;
    const at = chosen.map((t) => policy.types.indexOf(t));
    const index = at.reduce((acc, i) => acc * n + i, 0);
    return digit(chosen.length === 2 ? policy.pairs : policy.triples, index);
  }

  function cell(row, text, cls) {
    const td = document.createElement("td");
    td.textContent = text;
    if (cls) td.className = cls;
    row.appendChild(td);
  }

  function show() {
    const chosen = select.map((s) => s.value).filter((v) => v !== "").map(Number);
    body.textContent = "";
    for (const policy of data.policies) {
      const [result, label, rule, why] = answer(policy, chosen);
      const row = document.createElement("tr");
      row.dataset.policy = policy.name;
      const th = document.createElement("th");
      th.textContent = policy.title + " (" + policy.name + ")";
      th.title = policy.options ? "options: " + policy.options : "no options";
      row.appendChild(th);
      cell(row, result === null ? "refused" : result, result === null ? "result refused" : "result");
      cell(row, label === null ? "" : label, "label");
      cell(row, rule, "rule");
      cell(row, why === null ? "" : why, "why");
      body.appendChild(row);
    }
  }

  data.types.forEach((name, i) => {
    select.forEach((s) => s.add(new Option(name, String(i))));
  });
  select[2].add(new Option("(none)", ""), 0);

  // The chosen dtypes live in the address (#a=int8&b=uint8[&c=float16]): the front page's
  // landscape links a pair here, and a choice can be bookmarked or sent.
  function fromAddress() {
    const asked = new URLSearchParams(window.location.hash.slice(1));
    const index = (key, fallback) => {
      const i = data.types.indexOf(asked.get(key) || fallback);
      return i < 0 ? null : String(i);
    };
    select[0].value = index("a", "bfloat16") ?? String(data.types.indexOf("bfloat16"));
    select[1].value = index("b", "float16") ?? String(data.types.indexOf("float16"));
    select[2].value = asked.get("c") ? index("c", "") ?? "" : "";
    show();
  }

  function toAddress() {
    const chosen = new URLSearchParams();
    select.forEach((s, k) => {
      if (s.value !== "") chosen.set("abc"[k], data.types[Number(s.value)]);
    });
    history.replaceState(null, "", "#" + chosen.toString());
    show();
  }

  select.forEach((s) => s.addEventListener("change", toAddress));
  window.addEventListener("hashchange", fromAddress);
  fromAddress();
})();
