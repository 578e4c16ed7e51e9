import Foundation

def handler(request):
    return request.json()

let x = 1
