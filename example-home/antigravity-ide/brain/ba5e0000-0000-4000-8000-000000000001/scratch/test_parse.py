print("parse ok")
