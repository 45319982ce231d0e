// Sets the colour theme before the first paint, so no page flashes in the wrong one. A
// blocking classic script in <head>: the server's CSP (script-src 'self') allows no inline
// script. The same choice as src/lib/theme.ts while the session check is still running:
// the theme remembered for the last signed-in user on this browser (localStorage 'theme',
// see src/lib/theme-storage.ts), else the system setting, else SPEC.md's default, dark.
(function () {
  var theme = null;
  try {
    theme = window.localStorage.getItem('theme');
  } catch (e) {
    // Storage unavailable: follow the system.
  }
  if (theme !== 'light' && theme !== 'dark') {
    theme = window.matchMedia && window.matchMedia('(prefers-color-scheme: light)').matches ? 'light' : 'dark';
  }
  document.documentElement.setAttribute('data-theme', theme);
  var meta = document.querySelector('meta[name="color-scheme"]');
  if (meta) meta.setAttribute('content', theme);
})();

// One more thing that must be in place before anyone can touch the page: a prerendered page
// shows its forms before the app's script has taken them over, and a form sent then would go
// out as a plain page request carrying its fields in the address. Until src/main.tsx says
// the app is ready, a submission is held instead; the app sends the held one on once it is.
(function () {
  var held = null;
  document.addEventListener(
    'submit',
    function (event) {
      if (window.tsAppReady) return;
      event.preventDefault();
      held = { form: event.target, submitter: event.submitter || null };
    },
    true,
  );
  window.tsTakeHeldSubmit = function () {
    var submission = held;
    held = null;
    return submission;
  };
})();
