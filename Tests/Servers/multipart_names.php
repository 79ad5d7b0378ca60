<?php
// The PHP built-in server's router for the multipart name tests: every POST is parsed by PHP
// itself (its rfc1867 form parser fills $_POST and $_FILES) and answered with the field names
// and file names PHP decoded, as JSON: {"fields": [[name, value], ...], "files": [[name, filename], ...]}.
// GET answers {"php": VERSION}. Start: php -S 127.0.0.1:PORT multipart_names.php
header('Content-Type: application/json');
if ($_SERVER['REQUEST_METHOD'] !== 'POST') {
    echo json_encode(['php' => PHP_VERSION]);
    return;
}
$fields = [];
foreach ($_POST as $name => $value) {
    $fields[] = [(string)$name, is_array($value) ? json_encode($value) : $value];
}
$files = [];
foreach ($_FILES as $name => $file) {
    $files[] = [(string)$name, is_array($file['name']) ? json_encode($file['name']) : $file['name']];
}
echo json_encode(['fields' => $fields, 'files' => $files]);
