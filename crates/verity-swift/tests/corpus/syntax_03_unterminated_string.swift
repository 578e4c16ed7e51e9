import Foundation

let greeting = "Hello, world
print(greeting)
