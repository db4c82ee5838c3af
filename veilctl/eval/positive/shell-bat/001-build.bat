@echo off
REM build settings for ml-inference
set SPACES_SECRET_ACCESS_KEY=⟦CLOUD_CREDENTIAL|zGfvJyNsvL+f8CJldDjhgWkg5TjDmDTPdzSAZxHTquH⟧
set DB_PASSWORD=⟦PASSWORD|Tiger1012*⟧
set "POSTGRES_PASSWORD=⟦PASSWORD|Tiger1012*⟧"
call mvn -B deploy -DskipTests
