// Runs before any module: every CSP or Trusted Types violation of the page, from the very start.
window.cspViolations = [];
document.addEventListener('securitypolicyviolation', (event) => {
  window.cspViolations.push(`${event.violatedDirective} ${event.blockedURI} ${event.sample}`.trim());
});
