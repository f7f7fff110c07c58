// Depot's page: shows the document the element names, its operations listed by tag.
(function () {
  var el = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: el.getAttribute("data-spec-url"),
    dom_id: "#swagger-ui",
    deepLinking: true,
    docExpansion: "list",
    presets: [SwaggerUIBundle.presets.apis],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl]
  });
})();
