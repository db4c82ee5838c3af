<?php
return [
    'key' => env('APP_KEY'),
    'password' => env('DB_PASSWORD', ''),
    'stripe' => ['secret' => env('STRIPE_SECRET')],
    'cipher' => 'AES-256-CBC',
];
